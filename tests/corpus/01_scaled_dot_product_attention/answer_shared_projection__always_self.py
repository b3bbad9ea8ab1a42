# expect: fail test_answer_shared_projection
# why: takes the tendency to attend to oneself for a rule
answer_shared_projection = "c"
