# expect: fail test_answer_permutation
# why: thinks the output does not change at all
answer_permutation = "a"
