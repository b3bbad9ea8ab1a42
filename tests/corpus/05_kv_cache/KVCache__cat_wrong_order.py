# expect: fail test_cached_forward_matches_full_forward test_kvcache_overwrite_at_start_pos test_kvcache_several_updates test_kvcache_single_update
# why: grows the cache with torch.cat but puts the new chunk in front of the old ones (and keeps no preallocated buffer)
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.max_batch_size, self.max_seq_len = max_batch_size, max_seq_len
        self.k = torch.zeros(max_batch_size, num_kv_heads, 0, head_dim, dtype=dtype, device=device)
        self.v = torch.zeros(max_batch_size, num_kv_heads, 0, head_dim, dtype=dtype, device=device)
        self.cache_k, self.cache_v = self.k, self.v

    def update(self, start_pos, k, v):
        B, _, S, _ = k.shape
        if start_pos + S > self.max_seq_len or B > self.max_batch_size:
            raise ValueError("cache overflow")
        self.k = torch.cat([k, self.k[:B, :, :start_pos]], dim=2)
        self.v = torch.cat([v, self.v[:B, :, :start_pos]], dim=2)
        return self.k, self.v
