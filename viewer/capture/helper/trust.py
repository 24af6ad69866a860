"""Trust: what root runs must be root's alone, as named and with links resolved.

Every entry root would run, import or load, and every directory above it, must be owned by
root (or by the user running the helper, when that is not root, who gains nothing by it) and
writable by nobody else; a link is resolved and its target checked the same way, and a link to
nothing is refused (someone could create its target). `Trust` walks each tree once per check.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from .protocol import EXIT_UNTRUSTED, Refusal


def trusted_owners(euid: int) -> frozenset[int]:
    """Root, and the user running this when that is not root (who gains nothing by it)."""
    return frozenset({0, euid})


def check_entry(path: Path, st: os.stat_result, owners: frozenset[int],
                ancestor: bool = False) -> None:
    """One file or directory: a trusted owner, and no write bit for group or others. A
    root-owned sticky directory such as /tmp passes only as an `ancestor` of what is checked
    (nobody else can swap what it holds), never as the thing itself or inside a checked tree."""
    if st.st_uid not in owners:
        raise Refusal(EXIT_UNTRUSTED, f"{path} is owned by uid {st.st_uid}, not by root; "
                      "refusing to run it as root")
    if stat.S_ISLNK(st.st_mode):
        return
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        if (ancestor and stat.S_ISDIR(st.st_mode) and st.st_mode & stat.S_ISVTX
                and st.st_uid == 0):
            return
        raise Refusal(EXIT_UNTRUSTED, f"{path} is writable by group or others "
                      f"(mode {stat.S_IMODE(st.st_mode):04o}); refusing to run it as root")


def check_chain(path: Path, owners: frozenset[int]) -> None:
    """`path` and every directory above it, as named and as resolved through links."""
    for p in dict.fromkeys((Path(os.path.abspath(path)), Path(os.path.realpath(path)))):
        for entry in (p, *p.parents):
            try:
                st = os.lstat(entry)
            except OSError as exc:
                raise Refusal(EXIT_UNTRUSTED, f"{entry}: {exc.strerror}") from None
            check_entry(entry, st, owners, ancestor=entry != p)


class Trust:
    """The trust checks of one capture; each tree is walked once."""

    def __init__(self, owners: frozenset[int]) -> None:
        self.owners = owners
        self.walked: dict[str, tuple[str, ...]] = {}
        self.seen: set[tuple[str, bool]] = set()

    def chain(self, path: Path) -> None:
        """As check_chain, looking at each entry once per capture: (entry, as an ancestor)
        seen means every directory above it was seen too."""
        for p in dict.fromkeys((os.path.abspath(path), os.path.realpath(path))):
            entry, ancestor = p, False
            while (entry, False) not in self.seen and (entry, ancestor) not in self.seen:
                try:
                    st = os.lstat(entry)
                except OSError as exc:
                    raise Refusal(EXIT_UNTRUSTED, f"{entry}: {exc.strerror}") from None
                check_entry(Path(entry), st, self.owners, ancestor=ancestor)
                self.seen.add((entry, ancestor))
                parent = os.path.dirname(entry)
                if parent == entry:
                    break
                entry, ancestor = parent, True

    def tree(self, root: Path, skip: tuple[str, ...] = ()) -> None:
        """`root`, those above it, and everything below it; a link's target is checked with
        everything above it (and walked, when it is a directory); a link to nothing is refused.
        `skip` names directories directly below `root` that are not walked."""
        real = os.path.realpath(root)
        if any(_covers(w, skipped, real) for w, skipped in self.walked.items()):
            return
        self.chain(root)
        self.walked[real] = skip
        for top, dirs, files in os.walk(real, onerror=_walk_error):
            if top == real and skip:
                dirs[:] = [d for d in dirs if d not in skip]
            for name in (*dirs, *files):
                path = Path(top, name)
                if self._entry(path):
                    self.link(path)

    def entries(self, directory: Path) -> None:
        """`directory` (a library directory: what the loader may load), those above it, each
        entry directly in it, links resolved, and the tree below its `glibc-hwcaps/`, which
        the loader searches too. A link to nothing (a system folder may hold one a package
        left) must lead where only root can create its target."""
        self.chain(directory)
        if os.path.isdir(directory / "glibc-hwcaps"):
            self.tree(directory / "glibc-hwcaps")
        try:
            names = sorted(os.listdir(directory))
        except OSError as exc:
            raise Refusal(EXIT_UNTRUSTED, f"{directory}: {exc.strerror}") from None
        for name in names:
            path = Path(directory, name)
            if self._entry(path):
                target = Path(os.path.realpath(path))
                if os.path.lexists(target):
                    self.chain(target)
                else:
                    self.absent(target)

    def _entry(self, path: Path) -> bool:
        """One entry inside a checked tree or folder, checked; whether it is a link."""
        try:
            st = os.lstat(path)
        except OSError as exc:
            raise Refusal(EXIT_UNTRUSTED, f"{path}: {exc.strerror}") from None
        check_entry(path, st, self.owners)
        return stat.S_ISLNK(st.st_mode)

    def link(self, path: Path) -> None:
        target = self._target(path)
        if os.path.isdir(target):
            self.tree(target)
        else:
            self.chain(target)

    @staticmethod
    def _target(path: Path) -> Path:
        target = Path(os.path.realpath(path))
        if not os.path.lexists(target):
            raise Refusal(EXIT_UNTRUSTED, f"{path} is a link to nothing ({target}), which "
                          "someone could create; refusing to run it as root")
        return target

    def site(self, site_dir: Path, inside: Path | None = None) -> None:
        """A site-packages directory the kernel program imports from, and whatever its .pth
        files add to the import path; as root, an editable install's hook (an `__editable__`
        file or an .egg-link: root would import a checkout) is refused, and with `inside` (an
        install's own venv) so is a .pth path that leads outside it. One that does not exist
        must stay so: see `absent`."""
        if not os.path.lexists(site_dir):
            self.absent(site_dir)
            return
        self.tree(site_dir)
        for name in sorted(os.listdir(site_dir)):
            entry = Path(site_dir, name)
            if self.owners == {0} and (name.startswith("__editable__")
                                       or name.endswith(".egg-link")):
                raise Refusal(EXIT_UNTRUSTED, f"{entry} is an editable install's hook: root "
                              "would import a checkout; install the project as a copy")
            if not name.endswith(".pth"):
                continue
            for added in pth_paths(entry):
                if inside is not None and not below(added, inside):
                    raise Refusal(EXIT_UNTRUSTED, f"{entry} puts {os.path.realpath(added)} on "
                                  f"root's import path, outside the install {inside}; root "
                                  "would import from there")
                if os.path.lexists(added):
                    self.tree(added)
                else:  # site.py skips it today; nobody else may create it tomorrow
                    self.absent(added)

    def absent(self, path: Path) -> None:
        """A path that does not exist and that root would use if it did: the nearest directory
        above it that exists, and those above that, are checked, so that nobody but root can
        create it."""
        above = Path(os.path.abspath(path))
        while not os.path.lexists(above):
            above = above.parent
        self.chain(above)


def below(path: Path, top: Path) -> bool:
    """Whether `path`, links resolved, is `top` or lies below it."""
    real, top_real = os.path.realpath(path), os.path.realpath(top)
    return real == top_real or real.startswith(top_real.rstrip(os.sep) + os.sep)


MAX_PTH_BYTES = 1 << 16


def read_capped(path: Path, cap: int, past: str) -> bytes:
    """The file at `path`, at most `cap` bytes of it: Refusal where it cannot be read, or where it
    is longer, for what is not read cannot be checked (`past` ends that refusal's words)."""
    try:
        with open(path, "rb") as f:
            data = f.read(cap + 1)
    except OSError as exc:
        raise Refusal(EXIT_UNTRUSTED, f"{path}: {exc.strerror}") from None
    if len(data) > cap:
        raise Refusal(EXIT_UNTRUSTED, f"{path} is longer than {cap:,} bytes{past}")
    return data


def _covers(walked: str, skipped: tuple[str, ...], path: str) -> bool:
    """Whether walking `walked` (less the directories `skipped` directly below it) saw `path`."""
    if path == walked:
        return not skipped
    below = os.path.relpath(path, walked)
    return not below.startswith("..") and below.split(os.sep)[0] not in skipped


def pth_paths(pth: Path) -> list[Path]:
    """The directories a .pth file adds to the import path (its `import` lines are code in a
    file already checked). site.py reads the whole file, so one longer than MAX_PTH_BYTES is
    refused: a directory named past what was read would go unchecked."""
    data = read_capped(pth, MAX_PTH_BYTES, ": a .pth is checked whole or not at all")
    lines = data.decode("utf-8", "replace").splitlines()
    return [Path(pth.parent, line.rstrip()) for line in lines
            if line.strip() and not line.startswith(("#", "import ", "import\t"))]


def _walk_error(exc: OSError) -> None:
    raise Refusal(EXIT_UNTRUSTED, f"{exc.filename}: {exc.strerror}")
