# expect: pass
# why: logical_not of 'is negative'
def to_sdpa_bool_mask(additive):
    return torch.logical_not(additive < 0)
