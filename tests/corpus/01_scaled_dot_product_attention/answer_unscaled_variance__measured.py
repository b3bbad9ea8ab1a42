# expect: pass
# why: a measured value close to 512
answer_unscaled_variance = 509.7
