# expect: pass
# why: a loop over heads with slicing is slow but correct
def split_heads(x, num_heads):
    head_dim = x.shape[-1] // num_heads
    heads = []
    for h in range(num_heads):
        heads.append(x[:, :, h * head_dim:(h + 1) * head_dim])
    return torch.stack(heads, dim=1)
