# expect: fail test_answer_param_count
# why: forgets the four biases (4d^2 only)
answer_param_count = 4 * 768**2
