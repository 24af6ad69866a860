"""The interpreter's import path: what the helper (under -I -S) and the kernel program (the
venv's Python under -I, with site) import from, found as site.py finds it."""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from pathlib import Path

from .protocol import EXIT_UNTRUSTED, Refusal
from .trust import read_capped

SITE_DIRS = ("site-packages", "dist-packages")
"""Not the standard library's: a venv without system site-packages never imports from them."""
MAX_PYVENV_BYTES = 4096


def venv_site_dirs(python: Path) -> list[Path]:
    """The site-packages the kernel program (`python -I`, with site) imports from, found as its
    site.py finds them, from the venv itself: the venv's (Refusal where the venv has none), and
    the base interpreter's too where the venv includes them; those that do not exist included.

    Never from this interpreter's sysconfig: under -S, sys.prefix stays the base prefix, and
    Debian's default scheme then names venv/local/lib/pythonX.Y/dist-packages, which a venv
    does not have, while its site.py imports from venv/lib/pythonX.Y/site-packages."""
    venv, cfg = venv_of(python)
    if cfg is None:
        dirs = prefix_site_dirs(Path(sys.base_prefix))
        if not any(os.path.isdir(d) for d in dirs):
            raise Refusal(EXIT_UNTRUSTED, f"{python} has no site-packages in "
                          f"{sys.base_prefix}; refusing to run a program whose imports cannot "
                          "be checked")
        return dirs
    own = venv / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    if not os.path.isdir(own):
        raise Refusal(EXIT_UNTRUSTED, f"the venv {venv} has no {own.relative_to(venv)}, where "
                      "its Python imports from; refusing to run a program whose imports "
                      "cannot be checked")
    dirs = [own, *prefix_site_dirs(venv)]
    if venv_includes_system_site(cfg):
        dirs += prefix_site_dirs(Path(sys.base_prefix))
    return list(dict.fromkeys(dirs))


def venv_of(python: Path) -> tuple[Path, Path | None]:
    """(the venv's directory, its pyvenv.cfg) as site.py finds them from the interpreter's
    path as named: pyvenv.cfg beside it, else one level up; None where neither exists."""
    exe_dir = Path(os.path.abspath(python)).parent
    for cfg in (exe_dir / "pyvenv.cfg", exe_dir.parent / "pyvenv.cfg"):
        if os.path.isfile(cfg):
            return exe_dir.parent, cfg
    return exe_dir.parent, None


def venv_includes_system_site(cfg: Path) -> bool:
    """Whether site.py adds the base interpreter's site-packages: as it reads pyvenv.cfg, the
    last include-system-site-packages line counts, and none at all means true."""
    data = read_capped(cfg, MAX_PYVENV_BYTES, ": not a venv's pyvenv.cfg")
    value = "true"
    for line in data.decode("utf-8", errors="replace").splitlines():
        key, sep, rest = line.partition("=")
        if sep and key.strip().lower() == "include-system-site-packages":
            value = rest.strip().lower()
    return value == "true"


def prefix_site_dirs(prefix: Path) -> list[Path]:
    """Every site directory site.py may add for `prefix`: lib/pythonX.Y/site-packages (also
    below sys.platlibdir) and whatever this interpreter's site.getsitepackages names (Debian's
    dist-packages), existing or not. (`import site` under -S runs nothing: no .pth file.)"""
    version = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    dirs = [prefix / lib / version / "site-packages"
            for lib in dict.fromkeys(("lib", sys.platlibdir))]
    dirs += [Path(d) for d in site.getsitepackages([str(prefix)])]
    return list(dict.fromkeys(dirs))


def stdlib_dirs() -> list[Path]:
    """The interpreter's standard library (its zip, its tree with lib-dynload): what root
    imports under -I -S here, and in the kernel program before its site-packages."""
    found = [Path(p) for p in sys.path if p.endswith(".zip") and os.path.exists(p)]
    paths = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})
    for key in ("stdlib", "platstdlib"):
        if os.path.isdir(paths[key]):
            found.append(Path(paths[key]))
    return list(dict.fromkeys(found))
