# expect: pass
# why: one S x S map per head
answer_attention_weights_factor = 32 * 4096**2 / 4096**2
