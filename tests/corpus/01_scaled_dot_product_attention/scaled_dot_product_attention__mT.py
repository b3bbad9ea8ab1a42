# expect: pass
# why: key.mT (transpose of the last two dims) and a tensor-valued scale
def scaled_dot_product_attention(query, key, value, mask=None):
    scale = torch.tensor(query.shape[-1], dtype=query.dtype).rsqrt()
    scores = (query @ key.mT) * scale
    if mask is not None:
        scores = scores + mask
    weights = scores.softmax(-1)
    return weights @ value, weights
