# expect: fail test_kvcache_overflow_raises
# why: uses assert for the overflow check (AssertionError, and gone under python -O)
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.max_batch_size, self.max_seq_len = max_batch_size, max_seq_len
        shape = (max_batch_size, num_kv_heads, max_seq_len, head_dim)
        self.cache_k = torch.zeros(shape, dtype=dtype, device=device)
        self.cache_v = torch.zeros(shape, dtype=dtype, device=device)

    def update(self, start_pos, k, v):
        B, _, S, _ = k.shape
        assert start_pos + S <= self.max_seq_len and B <= self.max_batch_size, "cache overflow"
        self.cache_k[:B, :, start_pos:start_pos + S] = k
        self.cache_v[:B, :, start_pos:start_pos + S] = v
        return self.cache_k[:B, :, :start_pos + S], self.cache_v[:B, :, :start_pos + S]
