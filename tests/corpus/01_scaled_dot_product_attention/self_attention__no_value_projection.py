# expect: fail test_self_attention_shapes test_self_attention_values
# why: uses the embeddings themselves as values (V = x) instead of x @ w_v
def self_attention(x, w_q, w_k, w_v):
    return scaled_dot_product_attention(x @ w_q, x @ w_k, x)
