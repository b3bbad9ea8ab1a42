# expect: pass
# why: concatenating the heads along the feature axis is the definition of the merge
def merge_heads(x):
    return torch.cat(x.unbind(dim=1), dim=-1)
