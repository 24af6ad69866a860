# Two commands for a new user: `make run` and `make test`. Each sets up .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

PYTEST := QT_QPA_PLATFORM=offscreen NUMBA_ENABLE_CUDASIM=1 $(PY) -m pytest
# pytest-xdist: a worker per core; worksteal hands each worker a contiguous half of the tests (a
# module's shared windows and reports are made once per worker) and lets an idle one take more.
PARALLEL ?= -n auto --dist worksteal

.PHONY: run test test-fast test-durations bench install-capture uninstall-capture install-desktop uninstall-desktop \
	test-system

$(STAMP): pyproject.toml setup.py
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "ncu-reader needs Python 3.11 or newer; set PYTHON=python3.11")'
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m viewer

# The tests start the app's commands in hundreds of fresh interpreters: compiled once here, they
# load viewer/'s bytecode instead of compiling it each time (also where PYTHONDONTWRITEBYTECODE
# is set, which stops a writing but never a reading).
COMPILE := $(PY) -m compileall -q viewer

test: $(STAMP)
	$(PY) -m ruff check viewer tests benchmarks
	$(PY) -m mypy
	$(COMPILE)
	$(PYTEST) $(PARALLEL)

# The loop while working: ruff, then the tests that took under a quarter of a second in the run
# tests/durations.json records, of modules that took under 6 s (CONTRIBUTING.md), on every core;
# `make test` still runs every one.
test-fast: $(STAMP)
	$(PY) -m ruff check viewer tests benchmarks
	$(COMPILE)
	$(PYTEST) $(PARALLEL) --fast -q

# Record each test's time again, for test-fast's choice (a whole run).
test-durations: $(STAMP)
	$(PYTEST) $(PARALLEL) -q --record-durations tests/durations.json

# Benchmarks print tables and assert nothing; the GPU ones are in benchmarks/README.md. The last,
# bench_vs_ncu.py, is ncu against the viewer on the GPU machine; here, without ncu, the read
# cache's second open, the reader child's fixed cost and the viewer against bare ncu_report loads.
bench: $(STAMP)
	$(PY) benchmarks/bench_summary.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/bench_kernel_list.py
	$(PY) benchmarks/bench_time_by_kernel.py
	QT_QPA_PLATFORM=offscreen $(PY) benchmarks/bench_first_picture.py
	$(PY) benchmarks/bench_vs_ncu.py \
		$(if $(wildcard benchmarks/data/many-kernels.ncu-rep),--many benchmarks/data/many-kernels.ncu-rep)

# For admins, as root: the capture helper that pkexec runs (README, "For admins: capture").
PREFIX ?= /usr/local
LIBEXEC = $(PREFIX)/libexec/ncu-reader
POLKIT_ACTIONS ?= /usr/share/polkit-1/actions
NCU ?=
PIP_OPTS ?=
CAPTURE_VARS = PREFIX='$(PREFIX)' LIBEXEC='$(LIBEXEC)' POLKIT_ACTIONS='$(POLKIT_ACTIONS)' \
	NCU='$(NCU)' CUDA_HOME='$(CUDA_HOME)' LIBRARY_PATH='$(LIBRARY_PATH)' PYTHON='$(PYTHON)' \
	PIP_OPTS='$(PIP_OPTS)'

install-capture:
	@$(CAPTURE_VARS) bash resources/install-capture.sh install

uninstall-capture:
	@$(CAPTURE_VARS) bash resources/install-capture.sh uninstall

# No root: the .desktop file, the icon and the .ncu-rep MIME type under $$XDG_DATA_HOME.
install-desktop:
	@bash resources/install-desktop.sh install

uninstall-desktop:
	@bash resources/install-desktop.sh uninstall

# A real pkexec end to end, as root on a throwaway Debian machine (apt, a user, a polkit rule),
# with attacks on the helper (tests/system/pkexec_end_to_end.sh); it installs into a scratch
# prefix of its own and removes what it added. .ci/run runs it where it can.
test-system:
	bash tests/system/pkexec_end_to_end.sh
