# expect: fail test_mha_value_error
# why: checks divisibility with assert, which raises AssertionError instead of ValueError
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        q = split_heads(self.q_proj(query), self.num_heads)
        k = split_heads(self.k_proj(key), self.num_heads)
        v = split_heads(self.v_proj(value), self.num_heads)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        if mask is not None:
            scores = scores + mask
        weights = torch.softmax(scores, dim=-1)
        self.attn = weights
        return self.o_proj(merge_heads(weights @ v))
