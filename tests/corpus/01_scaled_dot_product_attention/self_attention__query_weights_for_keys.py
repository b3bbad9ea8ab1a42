# expect: fail test_self_attention_values
# why: reuses w_q for the keys (K = x @ w_q), so w_k is never used
def self_attention(x, w_q, w_k, w_v):
    q = x @ w_q
    return scaled_dot_product_attention(q, q, x @ w_v)
