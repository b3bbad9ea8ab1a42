# expect: fail test_kv_cache_bytes_random_configs
# why: hard-codes fp16 (2 bytes) and ignores bytes_per_element
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    return 2 * batch_size * seq_len * num_layers * num_kv_heads * head_dim * 2
