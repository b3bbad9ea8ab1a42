# expect: pass
# why: hides keys with masked_fill of a very negative number; for 0 / -inf masks this gives the same weights
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = query @ key.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores.masked_fill(mask == float("-inf"), -1e9)
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
