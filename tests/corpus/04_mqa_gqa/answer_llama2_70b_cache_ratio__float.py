# expect: pass
# why: 8.0 as a float is accepted
answer_llama2_70b_cache_ratio = 8.0
