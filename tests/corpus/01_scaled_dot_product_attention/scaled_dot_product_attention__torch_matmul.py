# expect: pass
# why: torch.matmul with transpose(-2, -1) and F.softmax
def scaled_dot_product_attention(query, key, value, mask=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / d_k ** 0.5
    if mask is not None:
        scores += mask
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, value), weights
