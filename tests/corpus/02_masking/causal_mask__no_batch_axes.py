# expect: fail test_causal_mask_values
# why: returns [S, S] without the two singleton axes (it still broadcasts, but breaks the contract)
def causal_mask(seq_len, dtype=torch.float32):
    full = torch.full((seq_len, seq_len), float("-inf"), dtype=dtype)
    return torch.triu(full, diagonal=1)
