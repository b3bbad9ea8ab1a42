# expect: fail test_answer_kv_head_of_query_head
# why: 6 // 3: divides by H_kv instead of n_rep
answer_kv_head_of_query_head = 2
