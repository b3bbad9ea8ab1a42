# expect: fail test_gqa_output_contract
# why: repeats K/V with torch.repeat (tile order): query head i reads KV head i % H_kv (passes the six published contract tests, see tests/test_published_contract.py)
class GroupedQueryAttention(nn.Module):
    """num_heads query heads share num_kv_heads key/value heads (MHA: equal, MQA: num_kv_heads = 1).

    head_dim = hidden_dim // num_heads and n_rep = num_heads // num_kv_heads; num_kv_heads=None means num_heads.
    Raises ValueError unless hidden_dim, num_heads and num_kv_heads are positive,
    hidden_dim % num_heads == 0 and num_heads % num_kv_heads == 0.
    Layers (nn.Linear, bias=False): q_proj hidden_dim -> num_heads * head_dim,
    k_proj and v_proj hidden_dim -> num_kv_heads * head_dim, o_proj num_heads * head_dim -> hidden_dim.
    """

    def __init__(self, hidden_dim: int, num_heads: int, num_kv_heads: int = None):
        super().__init__()
        if num_kv_heads is None:
            num_kv_heads = num_heads
        if hidden_dim <= 0 or num_heads <= 0 or num_kv_heads <= 0:
            raise ValueError(f"sizes must be positive, got hidden_dim={hidden_dim}, "
                             f"num_heads={num_heads}, num_kv_heads={num_kv_heads}")
        if hidden_dim % num_heads != 0:
            raise ValueError(f"hidden_dim ({hidden_dim}) must be divisible by num_heads ({num_heads})")
        if num_heads % num_kv_heads != 0:
            raise ValueError(f"num_heads ({num_heads}) must be divisible by num_kv_heads ({num_kv_heads})")
        self.hidden_dim = hidden_dim
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = hidden_dim // num_heads
        self.n_rep = num_heads // num_kv_heads
        self.q_proj = nn.Linear(hidden_dim, num_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_dim, num_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_dim, num_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * self.head_dim, hidden_dim, bias=False)
    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor = None, kv_cache=None):
        """x: [B, S, hidden_dim].
        attention_mask: None (every query reads every key) or an additive float mask that broadcasts to
            [B, num_heads, S, T], where T = cached positions + S (0 = may read, -inf = may not).
        kv_cache: None or (past_k, past_v), each [B, num_kv_heads, T - S, head_dim].

        Returns (output, (k, v)): output [B, S, hidden_dim]; k and v are [B, num_kv_heads, T, head_dim],
        the un-expanded keys/values of the history followed by those of x.
        """
        batch, seq_len, _ = x.shape
        q = self.q_proj(x).reshape(batch, seq_len, self.num_heads, self.head_dim).transpose(1, 2)     # [B, H, S, D]
        k = self.k_proj(x).reshape(batch, seq_len, self.num_kv_heads, self.head_dim).transpose(1, 2)  # [B, H_kv, S, D]
        v = self.v_proj(x).reshape(batch, seq_len, self.num_kv_heads, self.head_dim).transpose(1, 2)
        if kv_cache is not None:
            past_k, past_v = kv_cache
            k = torch.cat([past_k, k], dim=2)                                                          # [B, H_kv, T, D]
            v = torch.cat([past_v, v], dim=2)
        new_cache = (k, v)
        k_all = k.repeat(1, self.n_rep, 1, 1)
        v_all = v.repeat(1, self.n_rep, 1, 1)
        scores = q @ k_all.transpose(-2, -1) / math.sqrt(self.head_dim)                               # [B, H, S, T]
        if attention_mask is not None:
            scores = scores + attention_mask
        weights = torch.softmax(scores, dim=-1)
        heads = weights @ v_all                                                                        # [B, H, S, D]
        merged = heads.transpose(1, 2).reshape(batch, seq_len, self.num_heads * self.head_dim)        # [B, S, H*D]
        return self.o_proj(merged), new_cache
        ### END SOLUTION
