# expect: pass
# why: valid: mask=None for one-token chunks (one query may see every key)
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    caches = [KVCache(B, model.max_seq_len, model.num_kv_heads, model.head_dim, dtype=model.dtype)
              for _ in range(model.num_layers)]
    out, start = [], 0
    for n in chunk_sizes:
        mask = None if n == 1 else causal_mask_with_offset(n, start)
        out.append(model(ids[:, start:start + n], start_pos=start, caches=caches, mask=mask))
        start += n
    return torch.cat(out, dim=1)
