# expect: pass
# why: permute(0, 2, 1, 3) is the same swap as transpose(1, 2)
def merge_heads(x):
    B, H, S, D = x.shape
    return x.permute(0, 2, 1, 3).reshape(B, S, -1)
