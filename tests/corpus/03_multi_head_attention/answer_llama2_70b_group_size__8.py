# expect: pass
# why: 64 query heads / 8 key/value heads
answer_llama2_70b_group_size = 64 // 8
