# expect: fail test_safe_softmax_visible_rows
# why: exp without subtracting the row maximum: large scores overflow to inf/inf = NaN
def safe_softmax(scores, mask):
    e = torch.exp(scores + mask)
    return (e / e.sum(dim=-1, keepdim=True)).nan_to_num(0.0)
