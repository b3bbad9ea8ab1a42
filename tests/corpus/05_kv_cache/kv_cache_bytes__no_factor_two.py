# expect: fail test_answer_llama2_70b_kv_gib test_kv_cache_bytes_random_configs test_kv_cache_bytes_worked_example
# why: counts only K (or only V): forgets the factor 2
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    return batch_size * seq_len * num_layers * num_kv_heads * head_dim * bytes_per_element
