# expect: pass
# why: counting the parameters of the student's own module is a valid way to answer
answer_param_count = sum(p.numel() for p in MultiHeadAttention(768, 12).parameters())
