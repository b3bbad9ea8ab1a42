# expect: pass
# why: valid: a while loop with its own position counter
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
    logits = model(ids, start_pos=0, caches=caches, mask=causal_mask_with_offset(P, 0))
    pos = P
    while ids.shape[1] < P + max_new_tokens:
        nxt = torch.argmax(logits[:, -1, :], dim=1).unsqueeze(1)
        ids = torch.cat((ids, nxt), dim=1)
        if ids.shape[1] == P + max_new_tokens:
            break
        logits = model(nxt, start_pos=pos, caches=caches)
        pos += 1
    return ids
