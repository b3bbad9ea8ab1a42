# expect: fail test_merge_heads test_merge_heads_shapes test_mha_matches_torch test_mha_mask test_mha_cross_attention
# why: puts D before H when flattening, so the heads are interleaved channel by channel
def merge_heads(x):
    B, H, S, D = x.shape
    return x.permute(0, 2, 3, 1).reshape(B, S, D * H)
