# expect: fail test_generate_cache_matches_no_cache test_generate_matches_greedy_reference
# why: takes the logits of the first position instead of the last
def generate(model, prompt_ids, max_new_tokens, use_cache=True):
    model = as_model(model)
    B, P = prompt_ids.shape
    ids = prompt_ids
    if not use_cache:
        for _ in range(max_new_tokens):
            T = ids.shape[1]
            logits = model(ids, mask=causal_mask_with_offset(T, 0))
            ids = torch.cat([ids, logits[:, 0].argmax(dim=-1, keepdim=True)], dim=1)
        return ids
    caches = [KVCache(B, P + max_new_tokens, model.num_kv_heads, model.head_dim, dtype=model.dtype)
              for _ in range(model.num_layers)]
    logits = model(ids, start_pos=0, caches=caches, mask=causal_mask_with_offset(P, 0))
    for step in range(max_new_tokens):
        next_id = logits[:, 0].argmax(dim=-1, keepdim=True)
        ids = torch.cat([ids, next_id], dim=1)
        if step + 1 < max_new_tokens:
            logits = model(next_id, start_pos=ids.shape[1] - 1, caches=caches)
    return ids
