# expect: pass
# why: the dtype's most negative number instead of -inf
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    i = torch.arange(num_queries)[:, None]
    j = torch.arange(num_keys)[None, :]
    allowed = j <= i + (num_keys - num_queries)
    mask = torch.full((num_queries, num_keys), torch.finfo(dtype).min, dtype=dtype)
    return mask.masked_fill(allowed, 0.0)[None, None]
