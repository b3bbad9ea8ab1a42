# expect: pass
# why: additive < 0
def to_mha_bool_mask(additive):
    return additive < 0
