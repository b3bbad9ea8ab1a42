# expect: fail test_answer_llama2_70b_kv_gib test_kv_cache_bytes_random_configs test_kv_cache_bytes_worked_example
# why: forgets that every layer has its own cache
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    return 2 * batch_size * seq_len * num_kv_heads * head_dim * bytes_per_element
