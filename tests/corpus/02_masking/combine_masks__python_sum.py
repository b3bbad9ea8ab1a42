# expect: pass
# why: Python's sum (starts from 0, which broadcasts)
def combine_masks(*masks):
    return sum(masks)
