# expect: pass
# why: reshape + permute is the same as view + transpose
def split_heads(x, num_heads):
    B, S, width = x.shape
    return x.reshape(B, S, num_heads, -1).permute(0, 2, 1, 3)
