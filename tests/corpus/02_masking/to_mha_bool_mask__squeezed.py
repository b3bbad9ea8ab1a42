# expect: fail test_to_mha_bool_mask
# why: squeezes to [B, S] for key_padding_mask: the shape must not change
def to_mha_bool_mask(additive):
    return (additive != 0).squeeze(1).squeeze(1)
