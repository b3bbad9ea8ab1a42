# expect: fail test_safe_softmax_visible_rows test_safe_softmax_fully_masked_rows
# why: zeroes every row with ANY hidden key instead of rows where ALL keys are hidden
def safe_softmax(scores, mask):
    masked = scores + mask
    some_hidden = torch.isinf(masked).any(dim=-1, keepdim=True)
    weights = torch.softmax(masked.masked_fill(some_hidden, 0.0), dim=-1)
    return weights.masked_fill(some_hidden, 0.0)
