# expect: pass
# why: torch.repeat_interleave on the head axis gives the K0, K0, K1, K1 order
def repeat_kv(hidden_states, n_rep):
    return torch.repeat_interleave(hidden_states, n_rep, dim=1)
