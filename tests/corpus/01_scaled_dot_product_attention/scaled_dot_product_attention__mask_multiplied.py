# expect: fail test_sdpa_mask test_sdpa_float64
# why: multiplies the scores by the mask instead of adding it (0 * score and score * -inf)
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores * mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
