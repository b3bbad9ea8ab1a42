# expect: fail test_mha_parameters test_mha_value_error test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention test_mha_one_head
# why: calls F.scaled_dot_product_attention, which the exercise forbids (it must be written by hand)
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
        q = split_heads(self.q_proj(query), self.num_heads)
        k = split_heads(self.k_proj(key), self.num_heads)
        v = split_heads(self.v_proj(value), self.num_heads)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        self.attn = torch.softmax(scores if mask is None else scores + mask, dim=-1)
        return self.o_proj(merge_heads(out))
