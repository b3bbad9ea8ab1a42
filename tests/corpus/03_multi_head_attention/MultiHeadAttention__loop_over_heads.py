# expect: pass
# why: one attention per head on column slices, then concatenation: slow but correct
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("num_heads must divide d_model")
        self.num_heads, self.head_dim = num_heads, d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        q, k, v = self.q_proj(query), self.k_proj(key), self.v_proj(value)
        outs, maps = [], []
        for h in range(self.num_heads):
            cols = slice(h * self.head_dim, (h + 1) * self.head_dim)
            m = None
            if mask is not None:
                m = mask if mask.dim() < 4 else mask[:, h if mask.shape[1] > 1 else 0]
            out, w = scaled_dot_product_attention(q[..., cols], k[..., cols], v[..., cols], m)
            outs.append(out)
            maps.append(w)
        self.attn = torch.stack(maps, dim=1)
        return self.o_proj(torch.cat(outs, dim=-1))
