"""Copy installed distributions, with everything they require, into another site-packages.

    python3 benchmarks/copy_dists.py TARGET_SITE NAME [NAME ...] [--skip NAME ...]

The GPU machine reaches no package index, so its capture install gets numba and numba-cuda as
copies of the image's own (each file its RECORD lists, and the .dist-info), the way pip would
have installed them into the install's venv: root-owned files inside the install, not a .pth
pointing at the image's site-packages (which the helper would have to trust as a whole).
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import shutil
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement


def closure(names: list[str], skip: set[str]) -> list[md.Distribution]:
    """The distributions named and those they require (markers evaluated, no extras)."""
    env = default_environment()
    found: dict[str, md.Distribution] = {}
    todo = list(names)
    while todo:
        name = _canon(todo.pop())
        if name in found or name in skip:
            continue
        dist = md.distribution(name)
        found[name] = dist
        for text in dist.requires or ():
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({**env, "extra": ""}):
                todo.append(req.name)
    return list(found.values())


def _canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def copy(dist: md.Distribution, target: Path) -> int:
    """Every file of `dist` below its site-packages (scripts elsewhere are left out)."""
    n = 0
    for file in dist.files or ():
        if str(file).startswith(".."):
            continue
        src = Path(dist.locate_file(file))
        dst = target / file
        if src.is_file():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
            n += 1
    return n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("target", type=Path)
    p.add_argument("names", nargs="+")
    p.add_argument("--skip", nargs="*", default=[])
    args = p.parse_args()
    for dist in closure(args.names, {_canon(s) for s in args.skip}):
        print(f"{dist.metadata['Name']} {dist.version}: {copy(dist, args.target)} files")


if __name__ == "__main__":
    main()
