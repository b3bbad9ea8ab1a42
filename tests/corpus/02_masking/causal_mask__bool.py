# expect: fail test_causal_mask_values test_causal_mask_dtype test_causal_mask_blocks_future
# why: returns the boolean 'visible' matrix, which cannot be added to scores as a mask
def causal_mask(seq_len, dtype=torch.float32):
    return torch.tril(torch.ones(seq_len, seq_len, dtype=torch.bool))[None, None]
