# expect: pass
# why: 4.0 is the right integer written as a float
answer_fully_masked_rows = 4.0
