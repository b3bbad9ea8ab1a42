# expect: fail test_causal_mask_values test_causal_mask_blocks_future
# why: diagonal=0: a token cannot see itself, query 0 sees nothing (NaN)
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"), dtype=dtype)
    return torch.triu(full, diagonal=0)[None, None]
