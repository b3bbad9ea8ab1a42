# expect: fail test_padding_mask_values
# why: 0/1 values (1 for padding) instead of 0/-inf
def padding_mask(attention_mask, dtype=torch.float32):
    return (attention_mask == 0).to(dtype)[:, None, None, :]
