# expect: pass
# why: torch.finfo(dtype).min instead of -inf, which the specification allows
def causal_mask(seq_len, dtype=torch.float32):
    keep = torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))
    mask = torch.full((seq_len, seq_len), torch.finfo(dtype).min, dtype=dtype).masked_fill(keep, 0.0)
    return mask.reshape(1, 1, seq_len, seq_len)
