# expect: fail test_to_mha_bool_mask
# why: True = may attend: the opposite of nn.MultiheadAttention's convention
def to_mha_bool_mask(additive):
    return additive == 0
