# expect: fail test_padding_mask_dtype
# why: always float32: the dtype argument is ignored
def padding_mask(attention_mask, dtype=torch.float32):
    mask = torch.zeros(attention_mask.shape).masked_fill(attention_mask == 0, float("-inf"))
    return mask[:, None, None, :]
