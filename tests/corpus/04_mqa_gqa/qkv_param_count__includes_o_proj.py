# expect: fail test_qkv_param_count
# why: also counts o_proj
def qkv_param_count(hidden_dim, num_heads, num_kv_heads):
    head_dim = hidden_dim // num_heads
    return 2 * hidden_dim * hidden_dim + 2 * hidden_dim * num_kv_heads * head_dim
