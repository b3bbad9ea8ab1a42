# expect: pass
# why: chunk the features into H equal pieces and stack them on a new head axis
def split_heads(x, num_heads):
    return torch.stack(x.chunk(num_heads, dim=-1), dim=1)
