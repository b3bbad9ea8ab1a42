# expect: pass
# why: unflatten the last axis into [H, D], then swap S and H
def split_heads(x, num_heads):
    return x.unflatten(-1, (num_heads, -1)).transpose(1, 2)
