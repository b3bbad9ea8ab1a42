# expect: fail test_answer_combined_shape
# why: batch and head axes swapped
answer_combined_shape = (1, 3, 6, 6)
