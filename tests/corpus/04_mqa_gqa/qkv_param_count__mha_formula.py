# expect: fail test_qkv_param_count
# why: always 3 * hidden_dim**2: ignores num_kv_heads
def qkv_param_count(hidden_dim, num_heads, num_kv_heads):
    return 3 * hidden_dim * hidden_dim
