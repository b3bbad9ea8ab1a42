# expect: fail test_sdpa_mask test_sdpa_float64
# why: zeroes the hidden keys after the softmax, so the rows no longer sum to 1
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    weights = torch.softmax(scores, dim=-1)
    if mask is not None:
        weights = weights * (mask == 0)
    return weights @ value, weights
