# expect: fail test_answer_llama2_70b_kv_gib
# why: uses the 64 query heads instead of the 8 KV heads
answer_llama2_70b_kv_gib = kv_cache_bytes(1, 4096, 80, 64, 128, 2) / 2**30
