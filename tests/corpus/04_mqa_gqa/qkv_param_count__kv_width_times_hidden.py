# expect: fail test_qkv_param_count
# why: k/v width taken as num_kv_heads * hidden_dim instead of num_kv_heads * head_dim
def qkv_param_count(hidden_dim, num_heads, num_kv_heads):
    return hidden_dim * hidden_dim + 2 * hidden_dim * num_kv_heads * hidden_dim
