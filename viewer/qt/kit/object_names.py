"""A view's test interface: the object names its module gives the widgets tests look at.

Each module that names widgets for tests declares those names in one `Names` StrEnum beside the
widgets (`Names.TOTAL = "total"`) and names its widgets with them; a family of names, one a row
or a column, is a member that `one_of` joins to its keys (`one_of(Names.BAR, "dram", 1)` is
"bar_dram_1"). Tests import the Names and never spell a name out (tests/test_test_interface.py).
"""

from __future__ import annotations


def one_of(family: str, *keys: object) -> str:
    """The object name of one of a family: `family` and its keys joined by "_"."""
    return "_".join([str(family), *(str(key) for key in keys)])


def is_one_of(name: str, family: str) -> bool:
    """Whether the object name `name` is `family` or one of it."""
    return name == family or name.startswith(f"{family}_")
