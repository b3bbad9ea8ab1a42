# expect: fail test_answer_score_bytes
# why: uses 8 bytes per number (float64) instead of 4
answer_score_bytes = 4096 * 4096 * 8
