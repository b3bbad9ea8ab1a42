# expect: pass
# why: torch.where on position comparisons
def causal_mask(seq_len, dtype=torch.float32):
    i = torch.arange(seq_len).view(-1, 1)
    j = torch.arange(seq_len).view(1, -1)
    zero = torch.tensor(0.0, dtype=dtype)
    hidden = torch.tensor(float("-inf"), dtype=dtype)
    return torch.where(j <= i, zero, hidden).view(1, 1, seq_len, seq_len)
