# expect: fail test_answer_unscaled_variance
# why: gives the variance after dividing by sqrt(d_k)
answer_unscaled_variance = 1
