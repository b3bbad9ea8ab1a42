# expect: fail test_answer_params_more_heads
# why: thinks more heads mean more parameters
answer_params_more_heads = "a"
