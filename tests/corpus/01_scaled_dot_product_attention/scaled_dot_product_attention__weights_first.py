# expect: fail test_sdpa_shapes test_sdpa_weights test_sdpa_output test_sdpa_mask test_sdpa_float64 test_sdpa_stable test_self_attention_shapes test_self_attention_values
# why: returns the pair in the wrong order, (weights, output)
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights, weights @ value
