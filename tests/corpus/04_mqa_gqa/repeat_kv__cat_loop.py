# expect: pass
# why: a loop that appends n_rep copies of each head, then torch.cat
def repeat_kv(hidden_states, n_rep):
    copies = []
    for g in range(hidden_states.shape[1]):
        for _ in range(n_rep):
            copies.append(hidden_states[:, g:g + 1])
    return torch.cat(copies, dim=1)
