# expect: fail test_answer_padding_shape_can_be_causal
# why: believes a [B, 1, 1, S] mask can be causal
answer_padding_shape_can_be_causal = True
