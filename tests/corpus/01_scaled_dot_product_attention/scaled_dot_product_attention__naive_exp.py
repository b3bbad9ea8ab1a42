# expect: fail test_sdpa_stable
# why: writes the softmax as exp / sum without subtracting the row maximum: exp() overflows for huge scores
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    e = torch.exp(scores)
    weights = e / e.sum(dim=-1, keepdim=True)
    return weights @ value, weights
