# expect: pass
# why: torch.tril with a diagonal offset and torch.where
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    allowed = torch.ones(num_queries, num_keys).tril(diagonal=num_keys - num_queries).bool()
    mask = torch.where(allowed, torch.tensor(0.0, dtype=dtype), torch.tensor(float("-inf"), dtype=dtype))
    return mask.reshape(1, 1, num_queries, num_keys)
