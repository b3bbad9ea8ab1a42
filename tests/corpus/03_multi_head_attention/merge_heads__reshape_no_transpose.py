# expect: fail test_merge_heads test_merge_heads_shapes test_mha_matches_torch test_mha_mask test_mha_cross_attention
# why: reshapes [B, H, S, D] straight to [B, S, H*D]: the shape fits, the positions are mixed
def merge_heads(x):
    B, H, S, D = x.shape
    return x.reshape(B, S, H * D)
