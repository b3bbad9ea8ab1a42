# expect: fail test_causal_mask_values test_causal_mask_dtype test_causal_mask_blocks_future
# why: multiplies a 0/1 matrix by -inf: 0 * -inf = NaN on every visible entry
def causal_mask(seq_len, dtype=torch.float32):
    upper = torch.triu(torch.ones(seq_len, seq_len, dtype=dtype), diagonal=1)
    return (upper * float("-inf"))[None, None]
