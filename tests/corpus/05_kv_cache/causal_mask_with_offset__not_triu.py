# expect: pass
# why: valid: complement of the strictly-future part
def causal_mask_with_offset(num_new, num_cached):
    future = torch.ones(num_new, num_cached + num_new, dtype=torch.bool).triu(diagonal=num_cached + 1)
    return ~future
