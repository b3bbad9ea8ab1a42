# expect: fail test_kv_cache_bytes_random_configs test_kv_cache_bytes_worked_example
# why: returns a float (via division)
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    return 2 * batch_size * seq_len * num_layers * num_kv_heads * head_dim * bytes_per_element / 1
