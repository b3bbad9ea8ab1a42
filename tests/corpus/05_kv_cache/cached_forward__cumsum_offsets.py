# expect: pass
# why: valid: precomputed offsets and a preallocated output
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    caches = [KVCache(B, S, model.num_kv_heads, model.head_dim, dtype=model.dtype) for _ in range(model.num_layers)]
    offsets = [0]
    for n in chunk_sizes:
        offsets.append(offsets[-1] + n)
    logits = None
    for a, b in zip(offsets[:-1], offsets[1:]):
        part = model(ids[:, a:b], start_pos=a, caches=caches, mask=causal_mask_with_offset(b - a, a))
        if logits is None:
            logits = torch.empty(B, S, part.shape[-1], dtype=part.dtype)
        logits[:, a:b] = part
    return logits
