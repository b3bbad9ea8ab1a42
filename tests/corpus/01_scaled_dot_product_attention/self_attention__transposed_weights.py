# expect: fail test_self_attention_shapes test_self_attention_values
# why: multiplies by the transposed matrices (x @ w_q.T), the nn.Linear convention; wrong for [d_model, d_k] weights
def self_attention(x, w_q, w_k, w_v):
    return scaled_dot_product_attention(x @ w_q.T, x @ w_k.T, x @ w_v.T)
