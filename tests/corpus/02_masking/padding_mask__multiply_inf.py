# expect: fail test_padding_mask_values test_padding_mask_dtype
# why: multiplies by -inf: 0 * -inf = NaN for every real token
def padding_mask(attention_mask, dtype=torch.float32):
    is_pad = (attention_mask == 0).to(dtype)
    return (is_pad * float("-inf"))[:, None, None, :]
