# expect: pass
# why: scales the query by 1/sqrt(d_k) before the product (same scores)
def scaled_dot_product_attention(query, key, value, mask=None):
    query = query * (1.0 / math.sqrt(query.shape[-1]))
    scores = query @ key.transpose(-2, -1)
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
