# expect: pass
# why: gathers head j // n_rep with index_select
def repeat_kv(hidden_states, n_rep):
    if n_rep == 1:
        return hidden_states
    index = torch.arange(hidden_states.shape[1] * n_rep, device=hidden_states.device) // n_rep
    return hidden_states.index_select(1, index)
