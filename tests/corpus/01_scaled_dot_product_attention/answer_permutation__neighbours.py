# expect: fail test_answer_permutation
# why: thinks attention depends on neighbouring tokens
answer_permutation = "c"
