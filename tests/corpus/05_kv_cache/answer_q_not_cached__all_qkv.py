# expect: fail test_answer_q_not_cached
# why: thinks queries of earlier tokens are needed too
answer_q_not_cached = "a"
