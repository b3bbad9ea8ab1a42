# expect: fail test_sdpa_mask test_sdpa_float64
# why: adds the mask to the weights after the softmax (hidden keys get -inf weights)
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights + mask
    return weights @ value, weights
