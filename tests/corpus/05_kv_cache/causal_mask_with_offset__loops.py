# expect: pass
# why: valid: explicit loops
def causal_mask_with_offset(num_new, num_cached):
    mask = torch.zeros(num_new, num_cached + num_new, dtype=torch.bool)
    for i in range(num_new):
        for j in range(num_cached + num_new):
            if j <= num_cached + i:
                mask[i, j] = True
    return mask
