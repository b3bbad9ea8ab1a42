"""Cheating and robustness attacks on the grading engine, as chapter 01 submissions (see catalog.py)."""
