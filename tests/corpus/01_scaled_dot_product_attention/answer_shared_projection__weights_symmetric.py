# expect: fail test_answer_shared_projection
# why: confuses the symmetric scores with the weights, which are normalised row by row
answer_shared_projection = "a"
