# expect: pass
# why: computed with torch.broadcast_shapes
answer_combined_shape = torch.broadcast_shapes((1, 1, 6, 6), (3, 1, 1, 6))
