# expect: fail test_answer_causal_mask_shape
# why: [B, 1, 1, S] has one entry per key: a padding mask
answer_causal_mask_shape = "a"
