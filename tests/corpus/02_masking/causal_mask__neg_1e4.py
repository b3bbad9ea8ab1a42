# expect: fail test_causal_mask_values
# why: -1e4 is not negative enough for the specification (hidden entries must be -inf or <= -1e9)
def causal_mask(seq_len, dtype=torch.float32):
    future = torch.ones(seq_len, seq_len, dtype=torch.bool).triu(1)
    return torch.zeros(seq_len, seq_len, dtype=dtype).masked_fill(future, -1e4)[None, None]
