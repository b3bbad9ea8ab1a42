# expect: fail test_combine_masks_causal_and_padding test_combine_masks_adds_biases
# why: returns only the last mask
def combine_masks(*masks):
    return masks[-1]
