# expect: fail test_answer_param_count
# why: believes every head has its own d x d matrices
answer_param_count = 12 * (4 * 768**2 + 4 * 768)
