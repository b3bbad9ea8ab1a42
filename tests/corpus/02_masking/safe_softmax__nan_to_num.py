# expect: pass
# why: plain softmax, then NaN (only in fully hidden rows) replaced by 0
def safe_softmax(scores, mask):
    return torch.softmax(scores + mask, dim=-1).nan_to_num(0.0)
