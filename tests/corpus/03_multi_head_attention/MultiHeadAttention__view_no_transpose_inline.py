# expect: fail test_mha_matches_torch test_mha_attn_weights test_mha_mask test_mha_cross_attention
# why: splits and merges with view alone (no transpose): shapes fit, positions get mixed
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
        B, S_q, d = query.shape
        S_k = key.shape[1]
        H = self.num_heads
        q = self.q_proj(query).view(B, H, S_q, d // H)
        k = self.k_proj(key).view(B, H, S_k, d // H)
        v = self.v_proj(value).view(B, H, S_k, d // H)
        out, self.attn = scaled_dot_product_attention(q, k, v, mask)
        return self.o_proj(out.reshape(B, S_q, d))
