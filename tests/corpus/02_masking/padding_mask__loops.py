# expect: pass
# why: Python loops over batch and positions
def padding_mask(attention_mask, dtype=torch.float32):
    B, S = attention_mask.shape
    mask = torch.zeros(B, 1, 1, S, dtype=dtype)
    for b in range(B):
        for j in range(S):
            if attention_mask[b, j] == 0:
                mask[b, 0, 0, j] = float("-inf")
    return mask
