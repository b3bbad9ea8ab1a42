# expect: fail test_generate_with_cache_feeds_each_position_once
# why: with use_cache=True still feeds the whole sequence every step (rewriting the cache from 0): right tokens, no saving
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
    for _ in range(max_new_tokens):
        T = ids.shape[1]
        logits = model(ids, start_pos=0, caches=caches, mask=causal_mask_with_offset(T, 0))
        ids = torch.cat([ids, logits[:, -1].argmax(dim=-1, keepdim=True)], dim=1)
    return ids
