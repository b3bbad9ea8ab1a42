# expect: fail test_padding_mask_values
# why: treats 1 as padding: hides the real tokens and shows the pads
def padding_mask(attention_mask, dtype=torch.float32):
    mask = torch.zeros(attention_mask.shape, dtype=dtype).masked_fill(attention_mask == 1, float("-inf"))
    return mask[:, None, None, :]
