# expect: fail test_kvcache_overwrite_at_start_pos
# why: appends after the last write and ignores start_pos: fine for plain decoding, wrong when a position is rewritten
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.max_batch_size, self.max_seq_len = max_batch_size, max_seq_len
        shape = (max_batch_size, num_kv_heads, max_seq_len, head_dim)
        self.cache_k = torch.zeros(shape, dtype=dtype, device=device)
        self.cache_v = torch.zeros(shape, dtype=dtype, device=device)
        self.length = 0

    def update(self, start_pos, k, v):
        B, _, S, _ = k.shape
        start = self.length
        end = start + S
        if end > self.max_seq_len or B > self.max_batch_size:
            raise ValueError("cache overflow")
        self.cache_k[:B, :, start:end] = k
        self.cache_v[:B, :, start:end] = v
        self.length = end
        return self.cache_k[:B, :, :end], self.cache_v[:B, :, :end]
