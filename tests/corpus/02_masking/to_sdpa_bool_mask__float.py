# expect: fail test_to_sdpa_bool_mask
# why: returns 0/1 floats, which SDPA would add to the scores instead of masking
def to_sdpa_bool_mask(additive):
    return (additive == 0).float()
