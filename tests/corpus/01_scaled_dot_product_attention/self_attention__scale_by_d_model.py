# expect: fail test_self_attention_values
# why: written by hand, scales by sqrt(d_model) (the embedding size) instead of sqrt(d_k)
def self_attention(x, w_q, w_k, w_v):
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    weights = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(x.shape[-1]), dim=-1)
    return weights @ v, weights
