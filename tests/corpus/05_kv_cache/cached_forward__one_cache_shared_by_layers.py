# expect: fail test_cached_forward_matches_full_forward
# why: one KVCache shared by all layers: layer 2 overwrites layer 1's keys
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    cache = KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype)
    caches = [cache] * model.num_layers
    out, start = [], 0
    for n in chunk_sizes:
        out.append(model(ids[:, start:start + n], start_pos=start, caches=caches, mask=causal_mask_with_offset(n, start)))
        start += n
    return torch.cat(out, dim=1)
