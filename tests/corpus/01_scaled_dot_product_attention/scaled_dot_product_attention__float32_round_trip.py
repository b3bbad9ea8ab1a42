# expect: fail test_sdpa_float64 test_self_attention_values
# why: computes in float32 and casts back, so float64 results keep only float32 precision
def scaled_dot_product_attention(query, key, value, mask=None):
    dtype = query.dtype
    scores = query.float() @ key.float().transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask.float()
    weights = torch.softmax(scores, dim=-1)
    return (weights @ value.float()).to(dtype), weights.to(dtype)
