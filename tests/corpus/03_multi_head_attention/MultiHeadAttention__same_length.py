# expect: fail test_mha_cross_attention test_mha_one_head
# why: splits key and value with the query length, assuming S_k == S_q
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model must be divisible by num_heads")
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        q = split_heads(self.q_proj(query), self.num_heads)
        B, S_q, _ = query.shape
        k = self.k_proj(key).view(B, S_q, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(value).view(B, S_q, self.num_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        weights = torch.softmax(scores, dim=-1)
        self.attn = weights
        return self.o_proj(merge_heads(weights @ v))
