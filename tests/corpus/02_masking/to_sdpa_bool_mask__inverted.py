# expect: fail test_to_sdpa_bool_mask
# why: nn.MultiheadAttention's convention (True = blocked) given to SDPA
def to_sdpa_bool_mask(additive):
    return additive != 0
