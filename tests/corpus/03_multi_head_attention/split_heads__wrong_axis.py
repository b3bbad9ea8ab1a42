# expect: fail test_split_heads test_split_heads_shapes test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention
# why: views the features as [D, H] instead of [H, D], so every H-th channel lands in the same head
def split_heads(x, num_heads):
    B, S, width = x.shape
    return x.view(B, S, width // num_heads, num_heads).permute(0, 3, 1, 2)
