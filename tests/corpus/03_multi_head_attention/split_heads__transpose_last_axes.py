# expect: fail test_split_heads test_split_heads_shapes test_mha_parameters test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention test_mha_one_head
# why: transposes the wrong pair of axes, giving [B, S, D, H] (test_mha_value_error still passes: its 3-token, head size 3 input happens to give the right output shape)
def split_heads(x, num_heads):
    B, S, width = x.shape
    return x.view(B, S, num_heads, width // num_heads).transpose(2, 3)
