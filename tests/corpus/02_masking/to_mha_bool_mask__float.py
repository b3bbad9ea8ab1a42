# expect: fail test_to_mha_bool_mask
# why: returns 0/1 floats; nn.MultiheadAttention would add them to the scores
def to_mha_bool_mask(additive):
    return (additive != 0).to(additive.dtype)
