# expect: fail test_gqa_output_contract test_repeat_kv_edge_cases test_repeat_kv_shape_and_order
# why: the new axis is inserted before the head axis, which is the tile order again (passes the six published contract tests, see tests/test_published_contract.py)
def repeat_kv(hidden_states, n_rep):
    batch, num_kv_heads, seq_len, head_dim = hidden_states.shape
    if n_rep == 1:
        return hidden_states
    expanded = hidden_states[:, None].expand(batch, n_rep, num_kv_heads, seq_len, head_dim)
    return expanded.reshape(batch, num_kv_heads * n_rep, seq_len, head_dim)
