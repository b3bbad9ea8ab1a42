# expect: pass
# why: valid: bytes per token per layer, then scaled
def kv_cache_bytes(batch_size, seq_len, num_layers, num_kv_heads, head_dim, bytes_per_element=2):
    per_token_per_layer = 2 * num_kv_heads * head_dim * bytes_per_element   # one key + one value vector per KV head
    return int(per_token_per_layer * num_layers * seq_len * batch_size)
