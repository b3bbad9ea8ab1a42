# expect: fail test_answer_llama2_70b_kv_gib
# why: divides by 1e9 (GB) instead of 2**30 (GiB)
answer_llama2_70b_kv_gib = kv_cache_bytes(1, 4096, 80, 8, 128, 2) / 1e9
