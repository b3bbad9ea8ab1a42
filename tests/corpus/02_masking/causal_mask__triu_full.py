# expect: pass
# why: torch.triu of a -inf matrix with diagonal=1
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"), dtype=dtype)
    return torch.triu(full, diagonal=1).unsqueeze(0).unsqueeze(0)
