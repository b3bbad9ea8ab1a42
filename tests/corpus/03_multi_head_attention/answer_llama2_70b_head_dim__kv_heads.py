# expect: fail test_answer_llama2_70b_head_dim
# why: divides by the 8 key/value heads instead of the 64 query heads
answer_llama2_70b_head_dim = 8192 // 8
