# expect: fail test_causal_mask_dtype
# why: always float32: the dtype argument is ignored
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"))
    return torch.triu(full, diagonal=1)[None, None]
