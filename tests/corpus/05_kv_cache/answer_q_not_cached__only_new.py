# expect: fail test_answer_q_not_cached
# why: thinks nothing from earlier steps is needed
answer_q_not_cached = "d"
