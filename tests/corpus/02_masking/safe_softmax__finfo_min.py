# expect: fail test_safe_softmax_fully_masked_rows
# why: replaces -inf by finfo.min: fully hidden rows become uniform instead of 0
def safe_softmax(scores, mask):
    masked = (scores + mask).clamp(min=torch.finfo(scores.dtype).min)
    return torch.softmax(masked, dim=-1)
