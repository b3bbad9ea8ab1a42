# expect: pass
# why: .bool(): every nonzero (hidden) entry becomes True
def to_mha_bool_mask(additive):
    return additive.bool()
