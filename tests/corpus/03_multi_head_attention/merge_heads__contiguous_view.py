# expect: pass
# why: contiguous() before view is the classic way to merge
def merge_heads(x):
    B, H, S, D = x.shape
    return x.transpose(1, 2).contiguous().view(B, S, H * D)
