# expect: pass
# why: the same number written as a power of two, as a float
answer_score_bytes = float(2 ** 26)
