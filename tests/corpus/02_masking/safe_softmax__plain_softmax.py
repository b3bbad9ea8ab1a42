# expect: fail test_safe_softmax_fully_masked_rows
# why: ordinary softmax: fully hidden rows are NaN
def safe_softmax(scores, mask):
    return torch.softmax(scores + mask, dim=-1)
