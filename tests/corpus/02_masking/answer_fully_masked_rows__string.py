# expect: fail test_answer_fully_masked_rows
# why: a string, not a number
answer_fully_masked_rows = "4"
