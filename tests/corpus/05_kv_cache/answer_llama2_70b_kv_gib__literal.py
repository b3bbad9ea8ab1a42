# expect: pass
# why: valid: the number written out
answer_llama2_70b_kv_gib = 1.25
