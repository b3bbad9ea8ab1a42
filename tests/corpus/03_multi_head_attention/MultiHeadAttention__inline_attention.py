# expect: pass
# why: writes the attention by hand inside forward instead of calling the setup helper; stores attn detached
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads:
            raise ValueError("d_model must be divisible by num_heads")
        self.h = num_heads
        self.d_k = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        q = split_heads(self.q_proj(query), self.h)
        k = split_heads(self.k_proj(key), self.h)
        v = split_heads(self.v_proj(value), self.h)
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.d_k ** -0.5
        if mask is not None:
            scores = scores + mask
        p = scores.softmax(dim=-1)
        self.attn = p.detach()
        return self.o_proj(merge_heads(torch.matmul(p, v)))
