# expect: pass
# why: -1e9 instead of -inf, which the specification allows
def causal_mask(seq_len, dtype=torch.float32):
    future = torch.triu(torch.ones(seq_len, seq_len), diagonal=1).bool()
    return torch.zeros(seq_len, seq_len, dtype=dtype).masked_fill(future, -1e9)[None, None]
