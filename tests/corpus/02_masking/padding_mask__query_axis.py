# expect: fail test_padding_mask_values
# why: [B, 1, S, 1]: hides queries instead of keys
def padding_mask(attention_mask, dtype=torch.float32):
    mask = torch.zeros(attention_mask.shape, dtype=dtype).masked_fill(attention_mask == 0, float("-inf"))
    return mask[:, None, :, None]
