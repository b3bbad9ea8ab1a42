# expect: pass
# why: valid: the last num_new rows of the full square causal mask
def causal_mask_with_offset(num_new, num_cached):
    total = num_cached + num_new
    full = torch.tril(torch.ones(total, total)).bool()
    return full[num_cached:]
