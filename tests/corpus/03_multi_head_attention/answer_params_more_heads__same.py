# expect: pass
# why: the count does not depend on the number of heads
answer_params_more_heads = "c"
