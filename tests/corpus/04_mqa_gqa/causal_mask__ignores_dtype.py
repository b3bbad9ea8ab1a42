# expect: fail test_causal_mask_square test_causal_mask_with_cache_offset
# why: always float32, whatever dtype is asked for
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    offset = num_keys - num_queries
    blocked = torch.ones(num_queries, num_keys, dtype=torch.bool).triu(diagonal=offset + 1)
    return torch.zeros(1, 1, num_queries, num_keys).masked_fill(blocked, float("-inf"))
