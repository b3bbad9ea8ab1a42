# expect: pass
# why: F.linear(x, w.T) computes x @ w; returns a list instead of a tuple
def self_attention(x, w_q, w_k, w_v):
    output, weights = scaled_dot_product_attention(F.linear(x, w_q.T), F.linear(x, w_k.T), F.linear(x, w_v.T))
    return [output, weights]
