# expect: pass
# why: torch.where on isnan after the softmax
def safe_softmax(scores, mask):
    weights = torch.softmax(scores + mask, dim=-1)
    return torch.where(torch.isnan(weights), torch.zeros_like(weights), weights)
