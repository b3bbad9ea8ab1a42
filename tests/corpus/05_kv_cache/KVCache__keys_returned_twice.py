# expect: fail test_cached_forward_matches_full_forward test_generate_cache_matches_no_cache test_generate_matches_greedy_reference test_kvcache_overwrite_at_start_pos test_kvcache_several_updates test_kvcache_single_update
# why: returns the keys as values
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.max_batch_size, self.max_seq_len = max_batch_size, max_seq_len
        shape = (max_batch_size, num_kv_heads, max_seq_len, head_dim)
        self.cache_k = torch.zeros(shape, dtype=dtype, device=device)
        self.cache_v = torch.zeros(shape, dtype=dtype, device=device)

    def update(self, start_pos, k, v):
        B, _, S, _ = k.shape
        end = start_pos + S
        if end > self.max_seq_len:
            raise ValueError(f"cache overflow: {end} > {self.max_seq_len}")
        if B > self.max_batch_size:
            raise ValueError(f"batch {B} > {self.max_batch_size}")
        self.cache_k[:B, :, start_pos:end] = k
        self.cache_v[:B, :, start_pos:end] = v
        return self.cache_k[:B, :, :end], self.cache_k[:B, :, :end]
