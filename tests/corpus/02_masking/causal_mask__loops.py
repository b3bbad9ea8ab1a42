# expect: pass
# why: two Python loops filling the future with -inf
def causal_mask(seq_len, dtype=torch.float32):
    mask = torch.zeros(1, 1, seq_len, seq_len, dtype=dtype)
    for i in range(seq_len):
        for j in range(i + 1, seq_len):
            mask[0, 0, i, j] = float("-inf")
    return mask
