# expect: pass
# why: broadcast every mask to the common shape, stack and sum
def combine_masks(*masks):
    return torch.stack(torch.broadcast_tensors(*masks)).sum(dim=0)
