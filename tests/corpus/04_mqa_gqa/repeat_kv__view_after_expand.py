# expect: fail test_causal_mask_blocks_future test_gqa_output_contract test_kv_cache_decode_equivalence test_repeat_kv_edge_cases test_repeat_kv_shape_and_order
# why: view cannot merge an expanded axis: RuntimeError whenever n_rep > 1
def repeat_kv(hidden_states, n_rep):
    batch, num_kv_heads, seq_len, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    expanded = hidden_states[:, :, None].expand(batch, num_kv_heads, n_rep, seq_len, head_dim)
    return expanded.view(batch, num_kv_heads * n_rep, seq_len, head_dim)
