# expect: fail test_cached_forward_runs_each_position_once
# why: no cache: reruns the whole prefix for every chunk (right values, quadratic work)
def cached_forward(model, ids, chunk_sizes):
    model = as_model(model)
    B, S = ids.shape
    out, start = [], 0
    for n in chunk_sizes:
        end = start + n
        logits = model(ids[:, :end], mask=causal_mask_with_offset(end, 0))
        out.append(logits[:, start:end])
        start = end
    return torch.cat(out, dim=1)
