# expect: fail test_sdpa_shapes test_sdpa_weights test_sdpa_output test_sdpa_mask test_sdpa_float64 test_sdpa_stable test_self_attention_values
# why: computes K Q^T (the transposed score matrix); runs only when S_q == S_k and is wrong even then
def scaled_dot_product_attention(query, key, value, mask=None):
    scores = key @ query.transpose(-2, -1) / math.sqrt(query.shape[-1])
    if mask is not None:
        scores = scores + mask
    weights = torch.softmax(scores, dim=-1)
    return weights @ value, weights
