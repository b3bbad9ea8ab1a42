# expect: fail test_combine_masks_adds_biases
# why: elementwise minimum: right for 0/-inf masks, but it drops finite biases
def combine_masks(*masks):
    combined = masks[0]
    for m in masks[1:]:
        combined = torch.minimum(combined, m)
    return combined
