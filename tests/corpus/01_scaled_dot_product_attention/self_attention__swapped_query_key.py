# expect: fail test_self_attention_values
# why: swaps the query and key projections, which transposes the score matrix
def self_attention(x, w_q, w_k, w_v):
    return scaled_dot_product_attention(x @ w_k, x @ w_q, x @ w_v)
