# expect: pass
# why: the letter in upper case with a space is accepted
answer_causal_mask_shape = "B "
