# expect: fail test_cached_forward_matches_full_forward test_causal_mask_with_offset_random test_causal_mask_with_offset_small
# why: torch.tril on the rectangle: top-left alignment
def causal_mask_with_offset(num_new, num_cached):
    return torch.ones(num_new, num_cached + num_new, dtype=torch.bool).tril()
