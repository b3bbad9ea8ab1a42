# expect: pass
# why: max-subtracted exp with a finite max and a clamped denominator
def safe_softmax(scores, mask):
    masked = scores + mask
    top = masked.amax(dim=-1, keepdim=True)
    top = torch.where(torch.isinf(top), torch.zeros_like(top), top)
    e = torch.exp(masked - top)
    total = e.sum(dim=-1, keepdim=True)
    return e / total.clamp_min(torch.finfo(e.dtype).tiny)
