# expect: pass
# why: masked_fill then view to [B, 1, 1, S]
def padding_mask(attention_mask, dtype=torch.float32):
    B, S = attention_mask.shape
    mask = torch.zeros(B, S, dtype=dtype).masked_fill(attention_mask == 0, float("-inf"))
    return mask.view(B, 1, 1, S)
