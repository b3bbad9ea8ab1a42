# expect: fail test_answer_shared_projection
# why: writes the statement instead of its letter
answer_shared_projection = "the score matrix is symmetric"
