# expect: fail test_answer_kv_head_of_query_head
# why: 6 % 3: the tile pairing
answer_kv_head_of_query_head = 0
