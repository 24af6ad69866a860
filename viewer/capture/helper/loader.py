"""What the dynamic loader loads by itself into root's programs (not through LD_LIBRARY_PATH,
which only the install's LIBRARY_PATH sets): the folders ld.so.conf lists, those it searches
after its cache, each library its cache names, and ld.so.preload's."""

from __future__ import annotations

import glob
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .protocol import EXIT_UNTRUSTED, Refusal
from .trust import Trust, read_capped

LD_SO_CONF = "/etc/ld.so.conf"
LD_SO_CACHE = "/etc/ld.so.cache"
LD_SO_PRELOAD = "/etc/ld.so.preload"
LD_SYSTEM_DIRS = ("/lib", "/usr/lib", "/lib64", "/usr/lib64")
"""The folders glibc's loader searches after its cache (with the multiarch ones on Debian)."""
LD_CONF_MAX_FILES = 256
LD_CONF_MAX_DEPTH = 8
LD_MAX_BYTES = 1 << 16
"""Of one ld.so.conf file or ld.so.preload; a longer one is refused, not read in part."""
LD_CACHE_MAX_BYTES = 16 << 20
LD_CACHE_MAGIC = b"glibc-ld.so.cache1.1"
LD_CACHE_OLD_MAGIC = b"ld.so-1.7.0"
LD_CACHE_HEADER, LD_CACHE_ENTRY = 48, 24
"""glibc's struct cache_file_new and struct file_entry_new, in bytes (its sysdeps/generic/
dl-cache.h); the old format's header and entry are 16 and 12 bytes."""


@dataclass(frozen=True)
class Loader:
    """The dynamic loader's own files: where it finds libraries by itself (not through
    LD_LIBRARY_PATH, which only the install's LIBRARY_PATH sets)."""

    conf: Path = Path(LD_SO_CONF)
    cache: Path = Path(LD_SO_CACHE)
    preload: Path = Path(LD_SO_PRELOAD)
    system_dirs: tuple[str, ...] = LD_SYSTEM_DIRS


def check_loader(trust: Trust, loader: Loader) -> None:
    """What the loader may load into root's programs: each folder ld.so.conf and the files it
    includes list (ldconfig puts what lies in them in the cache) and each folder it searches
    after the cache (every entry directly in each, as for LIBRARY_PATH), each library the cache
    names, and each one ld.so.preload names, with the files themselves and everything above
    them; one that does not exist must stay so (`Trust.absent`)."""
    multiarch = getattr(sys.implementation, "_multiarch", "")
    system = [*loader.system_dirs,
              *(f"{d}/{multiarch}" for d in loader.system_dirs[:2] if multiarch)]
    for directory in dict.fromkeys([*ld_conf_dirs(loader.conf, trust), *map(Path, system)]):
        if os.path.lexists(directory):
            trust.entries(directory)
        else:
            trust.absent(directory)
    for path in (loader.cache, loader.preload):
        if os.path.lexists(path):
            trust.chain(path)
        else:
            trust.absent(path)
    libraries = ld_cache_libraries(loader.cache) if os.path.lexists(loader.cache) else []
    if os.path.lexists(loader.preload):
        libraries += preload_libraries(loader.preload)
    for library in dict.fromkeys(libraries):
        if os.path.lexists(library):
            trust.chain(Path(library))
        else:
            trust.absent(Path(library))


def preload_libraries(preload: Path) -> list[str]:
    """The absolute paths ld.so.preload names (split at white space and colons; a bare name is
    searched like any other library); one holding `$` (the loader expands $LIB, $PLATFORM and
    $ORIGIN there) is refused: what it names cannot be checked here."""
    names = _read_ld_file(preload).replace(":", " ").split()
    for name in names:
        if "$" in name:
            raise Refusal(EXIT_UNTRUSTED, f"{preload} names {name!r}, which the loader expands; "
                          "refusing a preloaded library that cannot be checked")
    return [name for name in names if os.path.isabs(name)]


def ld_conf_dirs(conf: Path, trust: Trust) -> list[Path]:
    """The folders `conf` lists, with those of the files its `include` lines name (as ldconfig
    reads them: `#` to the line's end a comment, `include PATTERN...` globbed, a relative
    pattern from the including file's folder, `hwcap` lines ignored, each other line a folder).
    Each file read, and the folder of each include pattern, is checked: whoever can change one
    can list a folder of theirs. A relative folder, too many files or too deep an include is
    refused."""
    found: list[Path] = []
    files = 0

    def read(path: Path, depth: int) -> None:
        nonlocal files
        files += 1
        if depth > LD_CONF_MAX_DEPTH or files > LD_CONF_MAX_FILES:
            raise Refusal(EXIT_UNTRUSTED, f"{path}: the loader's configuration includes more "
                          f"than {LD_CONF_MAX_FILES} files or {LD_CONF_MAX_DEPTH} levels; "
                          "refusing what cannot be checked")
        trust.chain(path)
        for line in _read_ld_file(path).splitlines():
            line = line.split("#", 1)[0].strip()
            words = line.split()
            if not words or (words[0].lower() == "hwcap" and len(words) > 1):
                continue
            if words[0] == "include" and len(words) > 1:
                for pattern in words[1:]:
                    for included in ld_conf_include(path, pattern, trust):
                        read(included, depth + 1)
                continue
            folder = line.rstrip("/") or "/"
            for name in dict.fromkeys((folder, folder.split("=", 1)[0].rstrip() or folder)):
                if not os.path.isabs(name):
                    raise Refusal(EXIT_UNTRUSTED, f"{path} lists the folder {name!r}, which is "
                                  "not absolute; refusing a library folder that cannot be "
                                  "checked")
                found.append(Path(name))

    if os.path.lexists(conf):
        read(conf, 0)
    else:
        trust.absent(conf)
    return list(dict.fromkeys(found))


def ld_conf_include(conf: Path, pattern: str, trust: Trust) -> list[Path]:
    """The files an `include` line's pattern names (relative: from `conf`'s folder), sorted
    as glob sorts them; the folders they would lie in are checked, so nobody else can add
    one."""
    if not os.path.isabs(pattern):
        pattern = os.path.join(os.path.dirname(conf), pattern)
    folder = os.path.dirname(pattern)
    for parent in (sorted(glob.glob(folder)) if glob.has_magic(folder) else [folder]):
        if os.path.lexists(parent):
            trust.chain(Path(parent))
        else:
            trust.absent(Path(parent))
    if glob.has_magic(folder):  # a folder that matches nothing yet: its fixed part above
        fixed = folder
        while glob.has_magic(fixed):
            fixed = os.path.dirname(fixed)
        trust.absent(Path(fixed, "*"))
    return [Path(p) for p in sorted(glob.glob(pattern))]


def ld_cache_libraries(cache: Path) -> list[str]:
    """Each library path the loader's cache names, read as glibc's loader reads it (its new
    format, alone or after the old one); Refusal where it cannot be read so."""
    def bad(why: str) -> Refusal:
        return Refusal(EXIT_UNTRUSTED, f"{cache}: {why}; refusing to trust the libraries the "
                       "loader would find through it")

    try:
        with open(cache, "rb") as f:
            data = f.read(LD_CACHE_MAX_BYTES + 1)
    except OSError as exc:
        raise bad(exc.strerror or "unreadable") from None
    if len(data) > LD_CACHE_MAX_BYTES:
        raise bad(f"longer than {LD_CACHE_MAX_BYTES:,} bytes")
    start = 0
    if data.startswith(LD_CACHE_OLD_MAGIC):
        if len(data) < 16:
            raise bad("cut short")
        old = int.from_bytes(data[12:16], "little")
        start = -(-(16 + old * 12) // 8) * 8  # aligned to 8, as glibc's ALIGN_CACHE
    if data[start:start + len(LD_CACHE_MAGIC)] != LD_CACHE_MAGIC:
        raise bad("not in the format glibc's loader reads (glibc-ld.so.cache1.1)")
    count = int.from_bytes(data[start + 20:start + 24], "little")
    if start + LD_CACHE_HEADER + count * LD_CACHE_ENTRY > len(data):
        raise bad("cut short")
    paths = []
    for i in range(count):
        at = start + LD_CACHE_HEADER + i * LD_CACHE_ENTRY + 8  # flags, key, then value
        offset = start + int.from_bytes(data[at:at + 4], "little")
        end = data.find(b"\0", offset)
        if offset >= len(data) or end < 0:
            raise bad("an entry names a path outside it")
        paths.append(os.fsdecode(data[offset:end]))
    return paths


def _read_ld_file(path: Path) -> str:
    """A loader's file (ld.so.conf, one it includes, ld.so.preload) as the loader reads it."""
    return os.fsdecode(read_capped(path, LD_MAX_BYTES, "; refusing what cannot be checked"))
