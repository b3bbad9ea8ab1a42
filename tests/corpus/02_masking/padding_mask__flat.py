# expect: fail test_padding_mask_values
# why: returns [B, S] without the head and query axes
def padding_mask(attention_mask, dtype=torch.float32):
    return torch.zeros(attention_mask.shape, dtype=dtype).masked_fill(attention_mask == 0, float("-inf"))
