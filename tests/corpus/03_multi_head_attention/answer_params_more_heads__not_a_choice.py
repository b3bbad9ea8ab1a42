# expect: fail test_answer_params_more_heads
# why: answers with a word instead of one of the letters
answer_params_more_heads = "same"
