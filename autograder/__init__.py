"""Instructor tooling of the course: build the student release and grade submissions.

`python -m autograder --help` lists the commands.
"""
