# expect: fail test_cached_forward_matches_full_forward
# why: builds the chunk mask with torch.tril (top-left alignment)
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    caches = [KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype) for _ in range(model.num_layers)]
    out, start = [], 0
    for n in chunk_sizes:
        mask = torch.ones(n, start + n, dtype=torch.bool).tril()
        out.append(model(ids[:, start:start + n], start_pos=start, caches=caches, mask=mask))
        start += n
    return torch.cat(out, dim=1)
