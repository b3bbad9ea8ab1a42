# expect: fail test_causal_mask_values test_causal_mask_blocks_future
# why: 0/1 values instead of 0/-inf: adding 1 to a score hides nothing
def causal_mask(seq_len, dtype=torch.float32):
    return torch.triu(torch.ones(seq_len, seq_len, dtype=dtype), diagonal=1)[None, None]
