# Two commands for a new user: `make run` and `make test`. Each sets up .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test lint bench

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "ncu-reader needs Python 3.11 or newer; set PYTHON=python3.11")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m viewer

test: $(STAMP)
	$(PY) -m ruff check viewer tests benchmarks
	QT_QPA_PLATFORM=offscreen NUMBA_ENABLE_CUDASIM=1 $(PY) -m pytest

# Benchmarks print tables and assert nothing; the GPU ones are in benchmarks/README.md.
bench: $(STAMP)
	$(PY) benchmarks/bench_summary.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/bench_kernel_list.py
