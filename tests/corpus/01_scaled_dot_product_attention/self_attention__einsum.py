# expect: pass
# why: projections with einsum, then the student's scaled_dot_product_attention
def self_attention(x, w_q, w_k, w_v):
    q = torch.einsum("...sm,mk->...sk", x, w_q)
    k = torch.einsum("...sm,mk->...sk", x, w_k)
    v = torch.einsum("...sm,mv->...sv", x, w_v)
    return scaled_dot_product_attention(q, k, v)
