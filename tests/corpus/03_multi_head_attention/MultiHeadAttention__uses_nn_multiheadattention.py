# expect: fail test_mha_parameters test_mha_value_error test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention test_mha_one_head
# why: wraps torch.nn.MultiheadAttention (forbidden) and copies the four Linear layers into it on every call
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model must be divisible by num_heads")
        self.num_heads = num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        d_model = self.q_proj.weight.shape[0]
        mha = nn.MultiheadAttention(d_model, self.num_heads, batch_first=True).to(query.dtype)
        with torch.no_grad():
            mha.in_proj_weight.copy_(torch.cat([self.q_proj.weight, self.k_proj.weight, self.v_proj.weight]))
            mha.in_proj_bias.copy_(torch.cat([self.q_proj.bias, self.k_proj.bias, self.v_proj.bias]))
            mha.out_proj.weight.copy_(self.o_proj.weight)
            mha.out_proj.bias.copy_(self.o_proj.bias)
        if mask is not None and mask.dim() == 4:
            mask = mask.expand(query.shape[0], self.num_heads, query.shape[1], key.shape[1]).flatten(0, 1)
        out, self.attn = mha(query, key, value, attn_mask=mask, average_attn_weights=False)
        return out
