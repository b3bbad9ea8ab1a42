# expect: fail test_answer_combined_shape
# why: the padding mask's shape: the query axis was not broadcast
answer_combined_shape = (3, 1, 1, 6)
