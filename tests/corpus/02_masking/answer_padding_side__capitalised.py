# expect: pass
# why: capital letter and a trailing space are fine
answer_padding_side = "Left "
