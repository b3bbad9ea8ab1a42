# expect: pass
# why: additive >= 0 (entries are 0 or very negative)
def to_sdpa_bool_mask(additive):
    return additive >= 0
