# expect: pass
# why: the formula 4d^2 + 4d written out
answer_param_count = 4 * 768 * 768 + 4 * 768
