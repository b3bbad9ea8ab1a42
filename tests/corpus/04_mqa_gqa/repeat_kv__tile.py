# expect: fail test_gqa_output_contract test_repeat_kv_edge_cases test_repeat_kv_shape_and_order
# why: torch.repeat tiles the whole stack: query head i gets KV head i % H_kv (K0, K1, K0, K1) (passes the six published contract tests, see tests/test_published_contract.py)
def repeat_kv(hidden_states, n_rep):
    return hidden_states.repeat(1, n_rep, 1, 1)
