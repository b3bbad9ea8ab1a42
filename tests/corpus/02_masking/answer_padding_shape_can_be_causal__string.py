# expect: fail test_answer_padding_shape_can_be_causal
# why: the string 'False' is not a boolean
answer_padding_shape_can_be_causal = "False"
