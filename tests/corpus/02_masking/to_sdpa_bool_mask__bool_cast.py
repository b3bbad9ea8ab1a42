# expect: fail test_to_sdpa_bool_mask
# why: .bool() turns 0 into False and -inf into True: inverted for SDPA
def to_sdpa_bool_mask(additive):
    return additive.bool()
