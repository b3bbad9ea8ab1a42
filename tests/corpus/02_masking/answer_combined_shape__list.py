# expect: pass
# why: a list of the right four integers
answer_combined_shape = [3, 1, 6, 6]
