"""Student-side helpers of the attention course: test checks, plots and widgets.

Nothing here contains a solution; students may read all of it.
"""
