# expect: pass
# why: the right letter in upper case with spaces
answer_shared_projection = " B "
