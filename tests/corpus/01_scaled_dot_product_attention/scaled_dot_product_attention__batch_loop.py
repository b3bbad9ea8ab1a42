# expect: pass
# why: flattens the leading dims and loops over the batch one 2-D matrix at a time
def scaled_dot_product_attention(query, key, value, mask=None):
    *lead, s_q, d = query.shape
    s_k, d_v = key.shape[-2], value.shape[-1]
    q = query.reshape(-1, s_q, d)
    k = key.reshape(-1, s_k, d)
    v = value.reshape(-1, s_k, d_v)
    if mask is None:
        m = torch.zeros(q.shape[0], s_q, s_k, dtype=query.dtype)
    else:
        m = torch.broadcast_to(mask, (*lead, s_q, s_k)).reshape(-1, s_q, s_k)
    outputs, all_weights = [], []
    for b in range(q.shape[0]):
        scores = q[b] @ k[b].T / math.sqrt(d) + m[b]
        w = torch.softmax(scores, dim=-1)
        all_weights.append(w)
        outputs.append(w @ v[b])
    output = torch.stack(outputs).reshape(*lead, s_q, d_v)
    weights = torch.stack(all_weights).reshape(*lead, s_q, s_k)
    return output, weights
