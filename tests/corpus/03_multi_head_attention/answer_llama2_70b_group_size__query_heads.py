# expect: fail test_answer_llama2_70b_group_size
# why: answers with the number of query heads instead of how many share one key/value head
answer_llama2_70b_group_size = 64
