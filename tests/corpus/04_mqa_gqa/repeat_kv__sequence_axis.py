# expect: fail test_causal_mask_blocks_future test_gqa_output_contract test_kv_cache_decode_equivalence test_mqa_output_contract test_repeat_kv_edge_cases test_repeat_kv_shape_and_order
# why: repeats along the sequence axis (dim=2) instead of the head axis
def repeat_kv(hidden_states, n_rep):
    return torch.repeat_interleave(hidden_states, n_rep, dim=2)
