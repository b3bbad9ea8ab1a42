# expect: pass
# why: valid: math.prod
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    import math
    return math.prod((2, batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element))
