# expect: fail test_answer_sdpa_is_causal_alignment
# why: assumes is_causal aligns to the bottom right like flash-attn does
answer_sdpa_is_causal_alignment = "bottom-right"
