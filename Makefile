# Attention Lab: one command per job. `make help` lists them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The CPU-only torch wheels (~200 MB instead of several GB of CUDA); skipped where that index is unreachable.
TORCH_INDEX ?= $(shell $(PYTHON) -c "import urllib.request as r; r.urlopen('https://download.pytorch.org/whl/cpu/', timeout=5); print('--extra-index-url https://download.pytorch.org/whl/cpu')" 2>/dev/null)
export OMP_NUM_THREADS ?= 1
export PATH := $(CURDIR)/$(VENV)/bin:$(PATH)

.PHONY: help demo test lab release check-release benchmark clean

help:
	@echo "make demo       set up .venv, rebuild notebooks/, grade the sample class into build/ (~1 min after set-up)"
	@echo "make test       set up .venv and run the whole test suite"
	@echo "make lab        open JupyterLab on notebooks/ (the student release)"
	@echo "make release    rebuild notebooks/ from solutions/"
	@echo "make benchmark  grading speed vs stock nbgrader, and chapter run times and memory"
	@echo "make clean      remove build/ (keeps .venv)"

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet $(TORCH_INDEX) -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

release: $(STAMP)
	$(PY) -m autograder release

check-release: $(STAMP)
	$(PY) -m autograder check-release

demo: release
	$(PY) -m autograder grade autograder/sample_class --out build

test: $(STAMP)
	$(PY) -m pytest

lab: $(STAMP)
	$(VENV)/bin/jupyter lab notebooks/

benchmark: $(STAMP)
	$(PY) benchmarks/grading_speed.py
	$(PY) benchmarks/chapter_runtime.py

clean:
	rm -rf build
