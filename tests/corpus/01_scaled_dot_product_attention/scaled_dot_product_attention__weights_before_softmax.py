# expect: fail test_sdpa_weights test_sdpa_mask test_sdpa_float64 test_sdpa_stable test_self_attention_values
# why: returns the scaled scores as the weights instead of the softmax of them
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    output = torch.softmax(scores, dim=-1) @ value
    return output, scores
