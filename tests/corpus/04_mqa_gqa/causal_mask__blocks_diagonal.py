# expect: fail test_causal_mask_square test_causal_mask_with_cache_offset
# why: triu(diagonal=0) also hides each position from itself
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    offset = num_keys - num_queries
    blocked = torch.ones(num_queries, num_keys, dtype=torch.bool).triu(diagonal=offset)
    return torch.zeros(1, 1, num_queries, num_keys, dtype=dtype).masked_fill(blocked, float("-inf"))
