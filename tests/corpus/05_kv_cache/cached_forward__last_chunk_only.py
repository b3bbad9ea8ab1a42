# expect: fail test_cached_forward_matches_full_forward test_cached_forward_runs_each_position_once
# why: returns only the logits of the last chunk
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    caches = [KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype) for _ in range(model.num_layers)]
    start = 0
    for n in chunk_sizes:
        logits = model(ids[:, start:start + n], start_pos=start, caches=caches, mask=causal_mask_with_offset(n, start))
        start += n
    return logits
