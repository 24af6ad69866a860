"""Where the trusted parts are (the install beside the helper, or ncu found as an ordinary user
finds it), and the check of everything root would run from there."""

from __future__ import annotations

import json
import os
import pwd
import stat
import sys
from dataclasses import dataclass
from pathlib import Path

from .interpreter import SITE_DIRS, stdlib_dirs, venv_of, venv_site_dirs
from .loader import Loader, check_loader
from .protocol import (
    CONFIG_NAME,
    ENV_NCU,
    EXIT_NCU_MISSING,
    EXIT_NOT_INSTALLED,
    EXIT_UNTRUSTED,
    NSIGHT_COMPUTE_DIR,
    SYSTEM_NCU,
    Refusal,
    find_system_ncu,
)
from .trust import Trust, below, check_entry, trusted_owners

MAX_CONFIG_BYTES = 4096
NCU_INSTALL_DIRS = ("target", "sections")
"""Beside ncu in Nsight Compute's own folder: its binaries and libraries, its sections and rules."""
NCU_DOCUMENTS = Path("Documents", "NVIDIA Nsight Compute")
"""Below HOME: ncu copies its sections and rule files (.py) there and reads them back."""


@dataclass(frozen=True)
class Layout:
    """Where the trusted parts are: ncu, the interpreter that runs the kernels, the install."""

    ncu: Path
    python: Path
    root: Path
    cuda_home: Path | None
    config: Path | None
    library_path: tuple[Path, ...] = ()


def program_path() -> Path:
    """This helper, links resolved: the zipapp file it was installed as, or, run from a
    checkout, its package folder."""
    archive = getattr(__spec__.loader, "archive", None)  # zipimport's: the zipapp's own path
    if isinstance(archive, str) and archive:
        return Path(os.path.realpath(archive))
    return Path(os.path.realpath(os.path.dirname(__file__)))


def check_layout(layout: Layout, euid: int, home: Path | None = None,
                 loader: Loader | None = None, before_venv: bool = False) -> None:
    """Everything root would run: ncu (and Nsight Compute's whole folder, when ncu is the one
    in it), the interpreter with its standard library and import path, the install, CUDA_HOME,
    the library directories and those the loader finds by itself (`loader`: the system's),
    and the rule files (.py) ncu keeps and runs from the home directory it is given (`home`:
    `euid`'s own). `before_venv`: all but the interpreter's site-packages and pyvenv.cfg, for
    the interpreter an install is about to make its venv with."""
    owners = trusted_owners(euid)
    trust = Trust(owners)
    home = home or Path(pwd.getpwuid(euid).pw_dir)
    trust.chain(home)
    if os.path.lexists(home / NCU_DOCUMENTS):
        trust.tree(home / NCU_DOCUMENTS)
    trust.tree(layout.root)
    for path in (layout.ncu, layout.python, program_path(), layout.config):
        if path is not None:
            trust.chain(path)
    ncu_home = Path(os.path.realpath(layout.ncu)).parent
    if all(os.path.isdir(ncu_home / d) for d in NCU_INSTALL_DIRS):
        trust.tree(ncu_home)
    if layout.cuda_home is not None:
        trust.tree(layout.cuda_home)
    for directory in layout.library_path:
        trust.entries(directory)
    check_loader(trust, loader or Loader())
    for entry in stdlib_dirs():
        if os.path.isdir(entry):
            trust.tree(entry, skip=SITE_DIRS)
        else:
            trust.chain(entry)
    if before_venv:
        return
    venv, cfg = venv_of(layout.python)
    if cfg is not None:
        trust.chain(cfg)
    own = layout.config is not None and owners == {0} and below(venv, layout.root)
    for site_dir in venv_site_dirs(layout.python):
        trust.site(site_dir, inside=layout.root if own and below(site_dir, venv) else None)


def load_layout(euid: int, environ: dict[str, str], here: Path | None = None) -> Layout:
    """The install beside this helper; unprivileged and uninstalled, ncu from $NCU_READER_NCU
    or the system's usual places. Root never takes a path from the environment or PATH."""
    here = here or program_path()
    config = here.with_name(CONFIG_NAME)
    python = Path(sys.executable)
    if os.path.lexists(config):
        ncu, cuda_home, library_path = read_config(config, trusted_owners(euid))
        return Layout(ncu, python, here.parent, cuda_home, config, library_path)
    if euid == 0:
        raise Refusal(EXIT_NOT_INSTALLED, f"{here} has no {CONFIG_NAME} beside it: run as root "
                      "it captures only from an install (sudo make install-capture)")
    named = environ.get(ENV_NCU, "")
    if named:
        if not os.path.isabs(named):
            raise Refusal(EXIT_NCU_MISSING, f"{ENV_NCU} must be an absolute path, got {named!r}")
        return Layout(Path(named), python, here.parent, None, None)
    found = find_system_ncu()
    if found is None:
        raise Refusal(EXIT_NCU_MISSING, "ncu (Nsight Compute) is not installed in "
                      f"{', '.join(SYSTEM_NCU)} or {NSIGHT_COMPUTE_DIR}")
    return Layout(found, python, here.parent, None, None)


def read_config(config: Path, owners: frozenset[int]
                ) -> tuple[Path, Path | None, tuple[Path, ...]]:
    """capture.json, read without following links: {"ncu": "/abs/ncu", "cuda_home": "/abs/dir"
    or null, "library_path": ["/abs/dir", ...] or null (the CUDA driver's libraries where the
    loader's cache lacks them)}."""
    try:
        fd = os.open(config, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{config}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        check_entry(config, st, owners)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CONFIG_BYTES:
            raise Refusal(EXIT_UNTRUSTED, f"{config} is not a small regular file")
        text = f.read(MAX_CONFIG_BYTES + 1)
    try:
        data = json.loads(text)
        ncu, cuda_home = data["ncu"], data.get("cuda_home")
        library_path = list(data.get("library_path") or ())
    except (ValueError, KeyError, TypeError, AttributeError):
        raise Refusal(EXIT_NOT_INSTALLED, f"{config} is not the install's capture.json") from None
    for value in (ncu, cuda_home, *library_path):
        if value is not None and not (isinstance(value, str) and os.path.isabs(value)
                                      and ":" not in value):
            raise Refusal(EXIT_NOT_INSTALLED, f"{config} names a path that is not absolute")
    return (Path(ncu), Path(cuda_home) if cuda_home else None,
            tuple(Path(p) for p in library_path))
