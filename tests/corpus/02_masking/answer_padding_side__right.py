# expect: fail test_answer_padding_side
# why: right padding puts pads at the end, where the next token is predicted
answer_padding_side = "right"
