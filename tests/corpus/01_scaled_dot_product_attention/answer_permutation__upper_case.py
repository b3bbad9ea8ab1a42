# expect: pass
# why: the right letter in upper case
answer_permutation = "B"
