# expect: fail test_cached_forward_matches_full_forward test_cached_forward_runs_each_position_once test_causal_mask_with_offset_random test_causal_mask_with_offset_small test_generate_cache_matches_no_cache test_generate_matches_greedy_reference test_generate_with_cache_feeds_each_position_once
# why: returns an additive float mask (0 / -inf) instead of a bool mask
def causal_mask_with_offset(num_new, num_cached):
    mask = torch.full((num_new, num_cached + num_new), float("-inf"))
    return mask.triu(diagonal=num_cached + 1)
