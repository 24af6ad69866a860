"""The helper as installed: one zipapp of this package's modules, its first line the venv's
Python under -IS, run as `python3 -I -S bundle.py OUT INTERPRETER` (install-capture.sh does).

The archive holds a `__main__.py` that starts the helper and the package under the name
ncu_reader_capture, its modules stored (no compression: zipimport then needs no zlib), in name
order with one fixed time, so that the same source gives the same bytes. Standard library only,
and it imports nothing of the package it packs.
"""

from __future__ import annotations

import os
import re
import sys
import zipfile
from pathlib import Path

PACKAGE = "ncu_reader_capture"
BOOT = f"from {PACKAGE}.main import entry\n\nentry()\n"
HERE = Path(__file__).resolve().parent
LEFT_OUT = frozenset({"bundle.py", "__main__.py"})
"""This builder, and the checkout's own `python -m` entry (the archive has its own)."""
SHEBANG_FLAGS = "-IS"
_INTERPRETER = re.compile(r"/[A-Za-z0-9/._+-]+")
_TIME = (1980, 1, 1, 0, 0, 0)


def sources(folder: Path = HERE) -> dict[str, str]:
    """The package's modules by file name: every .py file in `folder` but LEFT_OUT."""
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))
            if p.name not in LEFT_OUT}


def write(out: Path, interpreter: str, modules: dict[str, str]) -> None:
    """The zipapp at `out`: `#!INTERPRETER -IS`, then the archive of `modules`."""
    if not _INTERPRETER.fullmatch(interpreter):
        raise ValueError(f"the interpreter must be an absolute path of plain characters, got "
                         f"{interpreter!r}")
    with open(out, "wb") as f:
        f.write(f"#!{interpreter} {SHEBANG_FLAGS}\n".encode())
        with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as archive:
            _add(archive, "__main__.py", BOOT)
            for name, text in sorted(modules.items()):
                _add(archive, f"{PACKAGE}/{name}", text)


def _add(archive: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name, date_time=_TIME)
    info.external_attr = 0o644 << 16
    archive.writestr(info, text.encode("utf-8"))


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 -I -S bundle.py OUT INTERPRETER", file=sys.stderr)
        return 2
    try:
        write(Path(argv[0]), argv[1], sources())
    except (OSError, ValueError) as exc:
        print(f"bundle.py: {exc}", file=sys.stderr)
        return 1
    os.chmod(argv[0], 0o755)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
