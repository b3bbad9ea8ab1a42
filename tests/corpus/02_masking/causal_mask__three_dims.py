# expect: fail test_causal_mask_values
# why: returns [1, S, S]: only one singleton axis
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"), dtype=dtype)
    return torch.triu(full, diagonal=1)[None]
