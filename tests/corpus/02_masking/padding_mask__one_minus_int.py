# expect: fail test_padding_mask_values
# why: 1 - attention_mask fails for a bool attention_mask (torch forbids subtracting bools)
def padding_mask(attention_mask, dtype=torch.float32):
    return ((1 - attention_mask) * -1e9).to(dtype)[:, None, None, :]
