# expect: pass
# why: the right letter
answer_q_not_cached = "b"
