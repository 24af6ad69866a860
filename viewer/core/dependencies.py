"""The packages the app needs, and the one line said in place of a traceback when the Python
running it lacks one (another Python than the venv's, or a venv half set up).

Standard library only: this is what runs when nothing else can be imported.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Collection
from typing import TypeVar

from viewer.core.terminal_text import visible

DEPENDENCIES = {
    "PySide6": "PySide6-Essentials",
    "pyqtgraph": "pyqtgraph",
    "pandas": "pandas",
    "numpy": "numpy",
    "numba": "numba",
    "numba_cuda": "numba-cuda",
    "ncu_report": "ncu-report",
}
"""Each dependency's import name and its name to install (pyproject.toml's dependencies)."""
KERNEL_NEEDS = ("numpy", "numba", "numba_cuda")
"""What `python -m viewer.kernels` imports: the capture install's venv holds these alone."""
DATA_PACKAGES = ("viewer.profiles", "viewer.resources")
"""The shipped files' packages, which exist only where ncu-reader is installed (pyproject.toml maps
profiles/ and resources/ to them): a checkout run without installing it lacks them."""
INSTALL = "run `make run`, or `.venv/bin/pip install -e .`"

_Argv = TypeVar("_Argv")


def run_or_say_missing(run: Callable[[_Argv], int], argv: _Argv,
                       needs: Collection[str] = tuple(DEPENDENCIES)) -> int:
    """`run(argv)`; a dependency it cannot import is one line on stderr and exit status 1 (any
    other missing module is raised as it is). `needs`: the import names the program uses, the
    only ones the line names."""
    try:
        return run(argv)
    except ModuleNotFoundError as exc:
        line = missing_message(exc, needs)
        if line is None:
            raise
        print(line, file=sys.stderr)
        return 1


def missing(needs: Collection[str] = tuple(DEPENDENCIES)) -> list[str]:
    """The names to install of the dependencies in `needs` this Python cannot find."""
    return [name for module, name in DEPENDENCIES.items()
            if module in needs and importlib.util.find_spec(module) is None]


def missing_message(exc: ModuleNotFoundError,
                    needs: Collection[str] = tuple(DEPENDENCIES)) -> str | None:
    """The line to say for `exc`, or None when the module it names is none of the app's packages
    (a fault of the app itself, whose traceback is kept)."""
    name = exc.name or ""
    package = DEPENDENCIES.get(name.partition(".")[0])
    if package is None and name not in DATA_PACKAGES:
        return None
    lacking = missing(needs)
    if len(lacking) > 1:
        needs = "the Python packages " + ", ".join(f"'{p}'" for p in lacking)
    elif lacking:
        needs = f"the Python package '{lacking[0]}'"
    elif package is not None:
        needs = f"the Python package '{package}' ({name} is missing from it)"
    else:
        needs = f"ncu-reader installed, not only its checkout on the path ({name} is missing)"
    return visible(f"ncu-reader: needs {needs} ({INSTALL}); this is {sys.executable or 'Python'}")
