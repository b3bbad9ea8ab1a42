# expect: fail test_answer_score_bytes
# why: answers in MiB (64) although the question asks for bytes
answer_score_bytes = 64
