# expect: pass
# why: einsum with an ellipsis for the leading dims
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = torch.einsum("...qd,...kd->...qk", query, key) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = scores.softmax(dim=-1)
    output = torch.einsum("...qk,...kv->...qv", weights, value)
    return output, weights
