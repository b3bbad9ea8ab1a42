# expect: pass
# why: valid: prefills the prompt except its last token, then feeds one token per step
def generate(model, prompt_ids, max_new_tokens, use_cache=True):
    model = as_model(model)
    B, P = prompt_ids.shape
    ids = prompt_ids
    if not use_cache:
        for _ in range(max_new_tokens):
            T = ids.shape[1]
            logits = model(ids, mask=causal_mask_with_offset(T, 0))
            ids = torch.cat([ids, logits[:, -1].argmax(dim=-1, keepdim=True)], dim=1)
        return ids
    caches = [KVCache(B, P + max_new_tokens, model.num_kv_heads, model.head_dim, dtype=model.dtype)
              for _ in range(model.num_layers)]
    if P > 1:
        model(ids[:, :-1], start_pos=0, caches=caches, mask=causal_mask_with_offset(P - 1, 0))
    tokens = ids.tolist()
    current = ids[:, -1:]
    for _ in range(max_new_tokens):
        pos = len(tokens[0]) - 1
        logits = model(current, start_pos=pos, caches=caches)
        current = logits[:, -1].argmax(dim=-1, keepdim=True)
        for row, t in zip(tokens, current[:, 0].tolist()):
            row.append(t)
    return torch.tensor(tokens, dtype=torch.long)
