# expect: pass
# why: valid: index_copy_ along positions, returns copies, empty buffers
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.max_batch_size = max_batch_size
        self.max_seq_len = max_seq_len
        self.cache_k = torch.empty(max_batch_size, num_kv_heads, max_seq_len, head_dim, dtype=dtype, device=device)
        self.cache_v = torch.empty_like(self.cache_k)

    def update(self, start_pos, k, v):
        batch, new = k.shape[0], k.shape[2]
        if start_pos + new > self.max_seq_len:
            raise ValueError(f"{start_pos} + {new} positions do not fit in max_seq_len={self.max_seq_len}")
        if batch > self.max_batch_size:
            raise ValueError("too many sequences for this cache")
        positions = torch.arange(start_pos, start_pos + new, device=k.device)
        for buffer, new_values in ((self.cache_k, k), (self.cache_v, v)):
            rows = buffer[:batch]
            rows.index_copy_(2, positions, new_values.to(buffer.dtype))
        return self.cache_k[:batch, :, :start_pos + new].clone(), self.cache_v[:batch, :, :start_pos + new].clone()
