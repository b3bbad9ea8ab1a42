# expect: pass
# why: flatten(2) after the transpose merges [H, D] into H*D
def merge_heads(x):
    return x.transpose(1, 2).flatten(2)
