# expect: fail test_cached_forward_matches_full_forward
# why: no mask at all: inside a chunk, tokens see the future
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    caches = [KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype) for _ in range(model.num_layers)]
    out, start = [], 0
    for n in chunk_sizes:
        out.append(model(ids[:, start:start + n], start_pos=start, caches=caches))
        start += n
    return torch.cat(out, dim=1)
