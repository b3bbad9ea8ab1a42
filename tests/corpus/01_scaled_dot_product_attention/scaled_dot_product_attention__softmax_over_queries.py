# expect: fail test_sdpa_weights test_sdpa_output test_sdpa_mask test_sdpa_float64 test_sdpa_stable test_self_attention_values
# why: softmax over the query axis (dim=-2), so columns instead of rows sum to 1
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-2)
    return weights @ value, weights
