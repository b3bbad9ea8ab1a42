# expect: pass
# why: d_model / num_heads
answer_llama2_70b_head_dim = 8192 / 64
