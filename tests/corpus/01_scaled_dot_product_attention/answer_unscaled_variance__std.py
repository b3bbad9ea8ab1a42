# expect: fail test_answer_unscaled_variance
# why: gives the standard deviation sqrt(512) instead of the variance
answer_unscaled_variance = 512 ** 0.5
