# expect: fail test_causal_mask_values test_causal_mask_blocks_future
# why: tril instead of triu: hides the past and shows the future
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"), dtype=dtype)
    return torch.tril(full, diagonal=-1)[None, None]
