# expect: pass
# why: negation of the SDPA convention
def to_mha_bool_mask(additive):
    return ~(additive == 0)
