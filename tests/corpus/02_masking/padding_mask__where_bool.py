# expect: pass
# why: torch.where on the boolean attention mask, then .to(dtype)
def padding_mask(attention_mask, dtype=torch.float32):
    mask = torch.where(attention_mask.bool(), 0.0, float("-inf")).to(dtype)
    return mask[:, None, None, :]
