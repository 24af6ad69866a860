"""The reports that ship with the app, found through importlib.resources.

They live in profiles/ at the repository's top; the build maps that folder to the data package
`viewer.profiles` (pyproject.toml), so a wheel install, an editable install and a checkout find
them the same way, wherever the code runs from.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

PROFILES_PACKAGE = "viewer.profiles"
COMPARISON = ("naive.ncu-rep", "tiled.ncu-rep")
"""The naive-vs-tiled pair the app opens when it is given no file."""
REFERENCE = "t4-reference.toml"
"""The lesson's published Tesla T4 table (viewer.readers.reference_toml reads it as a Report)."""
METADATA = "metadata.json"
"""How the shipped pair was captured: GPU, driver, ncu, clock control, launch order, commands."""


def profiles_dir() -> Path:
    """The folder of the shipped reports, as a real directory (the readers need file paths)."""
    folder = resources.files(PROFILES_PACKAGE)
    if not isinstance(folder, Path):
        raise FileNotFoundError(f"{PROFILES_PACKAGE} is not a folder on disk: {folder}")
    return folder


def comparison() -> list[Path]:
    """The naive-vs-tiled reports (what the app opens by default); they may not exist yet."""
    folder = profiles_dir()
    return [folder / name for name in COMPARISON]


SWEEP = "sweep"
"""The folder of the lesson's kernels at several sizes (`series` with no file opens it)."""
SWEEP_PATTERNS = ("*.ncu-rep", "*.ncu-rep.gz")


def sweep() -> list[Path]:
    """The shipped sweep's reports (profiles/sweep/*.ncu-rep and *.ncu-rep.gz) by the size their
    name ends in, then by name (naive-128, tiled-128, naive-256, ...: each size's pair side by
    side, the first the window compares); [] where the folder is not shipped or holds none."""
    folder = profiles_dir() / SWEEP
    if not folder.is_dir():
        return []
    return sorted({p for pattern in SWEEP_PATTERNS for p in folder.glob(pattern)
                   if p.is_file()}, key=_by_size)


def _by_size(path: Path) -> tuple[int, str]:
    """(N where the name is KERNEL-N.ncu-rep[.gz], else -1; the name)."""
    found = re.fullmatch(r".*-(\d{1,5})\.ncu-rep(?:\.gz)?", path.name)
    return (int(found.group(1)) if found else -1, path.name)


def opened_with_no_file(series: bool = False) -> list[Path]:
    """What a window opens when no file is named: the shipped sweep for the Series view
    (`--tab series`) where it ships, else the shipped pair (which may not exist yet)."""
    found = sweep() if series else []
    return found or comparison()


def reference() -> Path:
    """The lesson's published T4 table."""
    return profiles_dir() / REFERENCE


def metadata() -> Path:
    """The shipped pair's capture record."""
    return profiles_dir() / METADATA


TIMING_RECORD = "timing-h200.toml"
"""The kernel timings recorded on the H200 (benchmarks/README.md), shown until a run here."""


def timing_record() -> Path:
    """The recorded kernel timings."""
    return profiles_dir() / TIMING_RECORD
