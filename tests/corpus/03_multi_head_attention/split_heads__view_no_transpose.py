# expect: fail test_split_heads test_split_heads_shapes test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention
# why: x.view(B, H, S, D) has the right shape but mixes positions inside a head
def split_heads(x, num_heads):
    B, S, width = x.shape
    return x.view(B, num_heads, S, width // num_heads)
