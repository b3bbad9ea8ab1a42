# expect: pass
# why: the right alignment
answer_sdpa_is_causal_alignment = "top-left"
