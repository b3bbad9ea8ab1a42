# expect: pass
# why: Hugging Face style (1 - mask) * finfo(dtype).min computed in the target dtype
def padding_mask(attention_mask, dtype=torch.float32):
    inverted = 1.0 - attention_mask.to(dtype)
    return (inverted * torch.finfo(dtype).min).unsqueeze(1).unsqueeze(2)
