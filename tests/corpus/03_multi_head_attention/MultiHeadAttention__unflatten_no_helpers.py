# expect: pass
# why: does not use split_heads/merge_heads; unflatten/flatten inline, attention from the setup cell
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads:
            raise ValueError("bad head count")
        self.num_heads = num_heads
        for name in ("q_proj", "k_proj", "v_proj", "o_proj"):
            setattr(self, name, nn.Linear(d_model, d_model, bias=True))

    def forward(self, query, key, value, mask=None):
        q = self.q_proj(query).unflatten(-1, (self.num_heads, -1)).transpose(1, 2)
        k = self.k_proj(key).unflatten(-1, (self.num_heads, -1)).transpose(1, 2)
        v = self.v_proj(value).unflatten(-1, (self.num_heads, -1)).transpose(1, 2)
        out, self.attn = scaled_dot_product_attention(q, k, v, mask=mask)
        return self.o_proj(out.transpose(1, 2).flatten(2))
