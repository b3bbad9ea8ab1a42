# expect: pass
# why: valid: tril with diagonal=num_cached
def causal_mask_with_offset(num_new, num_cached):
    return torch.ones(num_new, num_cached + num_new, dtype=torch.bool).tril(diagonal=num_cached)
