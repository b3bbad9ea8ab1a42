# expect: fail test_safe_softmax_visible_rows test_safe_softmax_fully_masked_rows
# why: the mask is never added
def safe_softmax(scores, mask):
    return torch.softmax(scores, dim=-1)
