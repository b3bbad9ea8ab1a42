# expect: fail test_cached_forward_matches_full_forward
# why: creates fresh caches for every chunk, so earlier chunks are forgotten
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    out, start = [], 0
    for n in chunk_sizes:
        caches = [KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype) for _ in range(model.num_layers)]
        out.append(model(ids[:, start:start + n], start_pos=start, caches=caches, mask=causal_mask_with_offset(n, start)))
        start += n
    return torch.cat(out, dim=1)
