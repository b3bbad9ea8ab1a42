# expect: pass
# why: folds the heads into the batch axis ([B*H, S, D]) and uses torch.bmm, as d2l does; the mask is expanded to match
class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model must be a multiple of num_heads")
        self.num_heads = num_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value, mask=None):
        B, S_q, d = query.shape
        S_k, H = key.shape[1], self.num_heads
        fold = lambda t: split_heads(t, H).reshape(B * H, t.shape[1], d // H)
        q, k, v = fold(self.q_proj(query)), fold(self.k_proj(key)), fold(self.v_proj(value))
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(d // H)
        if mask is not None:
            scores = scores + mask.expand(B, H, S_q, S_k).reshape(B * H, S_q, S_k)
        weights = torch.softmax(scores, dim=-1)
        self.attn = weights.view(B, H, S_q, S_k)
        out = torch.bmm(weights, v).view(B, H, S_q, d // H)
        return self.o_proj(merge_heads(out))
