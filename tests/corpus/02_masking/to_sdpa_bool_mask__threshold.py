# expect: pass
# why: anything above -1 counts as visible
def to_sdpa_bool_mask(additive):
    return additive > -1.0
