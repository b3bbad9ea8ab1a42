# expect: pass
# why: 0 is an acceptable way to write False
answer_padding_shape_can_be_causal = 0
