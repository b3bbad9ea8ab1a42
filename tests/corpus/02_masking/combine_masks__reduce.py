# expect: pass
# why: functools.reduce with operator.add
def combine_masks(*masks):
    import functools
    import operator
    return functools.reduce(operator.add, masks)
