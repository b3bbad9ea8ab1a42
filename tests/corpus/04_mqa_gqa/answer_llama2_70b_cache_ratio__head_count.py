# expect: fail test_answer_llama2_70b_cache_ratio
# why: answers the number of heads instead of the ratio
answer_llama2_70b_cache_ratio = 64
