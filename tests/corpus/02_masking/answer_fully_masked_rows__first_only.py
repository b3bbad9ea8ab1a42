# expect: fail test_answer_fully_masked_rows
# why: counts only the first sentence
answer_fully_masked_rows = 3
