# expect: pass
# why: softmax written by hand, with the row maximum subtracted first
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    scores = scores - scores.max(dim=-1, keepdim=True).values
    e = scores.exp()
    weights = e / e.sum(dim=-1, keepdim=True)
    return weights @ value, weights
