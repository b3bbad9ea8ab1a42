# expect: fail test_causal_mask_square test_causal_mask_with_cache_offset
# why: returns the boolean 'allowed' matrix, which cannot be added to the scores
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    allowed = torch.ones(num_queries, num_keys, dtype=torch.bool).tril(diagonal=num_keys - num_queries)
    return allowed[None, None]
