# expect: fail test_answer_attention_weights_factor
# why: confuses the number of weights with the number of multiply-adds, which does not grow
answer_attention_weights_factor = 1
