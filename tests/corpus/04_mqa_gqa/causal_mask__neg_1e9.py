# expect: pass
# why: -1e9 instead of -inf still gives future keys a weight of exactly 0
def causal_mask(num_queries, num_keys=None, dtype=torch.float32):
    if num_keys is None:
        num_keys = num_queries
    offset = num_keys - num_queries
    blocked = torch.triu(torch.ones(num_queries, num_keys, dtype=torch.bool), diagonal=offset + 1)
    return torch.zeros(1, 1, num_queries, num_keys, dtype=dtype).masked_fill(blocked, -1e9)
