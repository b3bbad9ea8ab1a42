# expect: pass
# why: einsum for the head split, the scores and the weighted sum
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError(f"{d_model} % {num_heads} != 0")
        self.num_heads = num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        B, S_q, d = query.shape
        S_k = key.shape[1]
        H = self.num_heads
        q = self.q_proj(query).view(B, S_q, H, d // H)
        k = self.k_proj(key).view(B, S_k, H, d // H)
        v = self.v_proj(value).view(B, S_k, H, d // H)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // H)
        if mask is not None:
            scores = scores + mask
        weights = torch.softmax(scores, dim=-1)
        self.attn = weights
        out = torch.einsum("bhqk,bkhd->bqhd", weights, v).reshape(B, S_q, d)
        return self.o_proj(out)
