# expect: fail test_sdpa_float64 test_self_attention_values
# why: casts the inputs to float32, so float64 inputs come back as float32
def scaled_dot_product_attention(query, key, value, mask=None):
    query, key, value = query.float(), key.float(), value.float()
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask.float()
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
