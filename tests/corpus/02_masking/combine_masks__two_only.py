# expect: fail test_combine_masks_adds_biases
# why: adds only the first two masks (and fails for a single mask)
def combine_masks(*masks):
    return masks[0] + masks[1]
