# expect: pass
# why: valid: validates with if/raise up front, stores via a loop over (buffer, tensor) pairs
class KVCache:
    """Preallocated key/value cache of one attention layer, layout [B, H_kv, T, D]."""

    def __init__(self, max_batch_size, max_seq_len, num_kv_heads, head_dim, dtype=torch.float32, device="cpu"):
        self.limits = (max_batch_size, max_seq_len)
        self.cache_k = torch.zeros(max_batch_size, num_kv_heads, max_seq_len, head_dim, dtype=dtype, device=device)
        self.cache_v = torch.zeros(max_batch_size, num_kv_heads, max_seq_len, head_dim, dtype=dtype, device=device)

    def update(self, start_pos, k, v):
        max_b, max_t = self.limits
        b, s = k.size(0), k.size(2)
        if b > max_b or start_pos + s > max_t:
            raise ValueError(f"does not fit: batch {b}/{max_b}, positions {start_pos + s}/{max_t}")
        out = []
        for buf, x in ((self.cache_k, k), (self.cache_v, v)):
            buf[:b, :, start_pos:start_pos + s] = x
            out.append(buf[:b, :, :start_pos + s])
        return tuple(out)
