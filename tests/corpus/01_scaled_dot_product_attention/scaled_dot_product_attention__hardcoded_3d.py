# expect: fail test_sdpa_shapes test_sdpa_weights test_sdpa_output test_sdpa_mask test_sdpa_float64 test_sdpa_stable test_self_attention_shapes test_self_attention_values
# why: assumes 3-D inputs (unpacks B, S, D and uses torch.bmm), so 2-D and 4-D inputs fail
def scaled_dot_product_attention(query, key, value, mask=None):
    B, S_q, D = query.shape
    scores = torch.bmm(query, key.transpose(1, 2)) / math.sqrt(D)
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return torch.bmm(weights, value), weights
