"""nbgrader settings: run plain `nbgrader` commands from the repository root."""
import os

c = get_config()  # noqa: F821 (provided by nbgrader)

here = os.path.dirname(os.path.abspath(__file__))
c.CourseDirectory.root = here
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "notebooks"
c.CourseDirectory.db_url = "sqlite:///" + os.path.join(here, "build", "gradebook.db")
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__"]

c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.Execute.timeout = 60
c.OverwriteCells.add_missing_cells = True
# Cell tags such as `skip-execution` must not be able to skip a test cell.
c.Execute.skip_cells_with_tag = "attention-lab-never-skip-a-cell"
# Known torch/matplotlib warnings must not count as a failed test (nbgrader scores stderr as failure).
c.IgnorePattern.pattern = r"(UserWarning|FutureWarning|DeprecationWarning|NNPACK)"
