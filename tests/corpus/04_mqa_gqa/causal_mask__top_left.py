# expect: fail test_causal_mask_with_cache_offset
# why: ignores the cache offset: triu(1) on [S_q, S_k] is aligned to the top-left corner
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    blocked = torch.ones(num_queries, num_keys, dtype=torch.bool).triu(diagonal=1)
    return torch.zeros(1, 1, num_queries, num_keys, dtype=dtype).masked_fill(blocked, float("-inf"))
