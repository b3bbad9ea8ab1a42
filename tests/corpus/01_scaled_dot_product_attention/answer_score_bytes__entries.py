# expect: fail test_answer_score_bytes
# why: counts the entries of the matrix, not the bytes
answer_score_bytes = 4096 * 4096
