# expect: pass
# why: MHA's 3 d^2 minus what the narrower k/v projections drop
def qkv_param_count(hidden_dim, num_heads, num_kv_heads):
    kv_width = num_kv_heads * (hidden_dim // num_heads)
    return 3 * hidden_dim * hidden_dim - 2 * hidden_dim * (hidden_dim - kv_width)
