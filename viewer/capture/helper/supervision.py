"""Supervision: the process around ncu. Resource limits reset, the helper a child subreaper,
its standard descriptors checked, every process below it found and ended, and the stop signals
(SIGTERM, SIGHUP, SIGINT, SIGQUIT) taken by the main thread alone, raised only where asked."""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import resource
import signal
import stat
import threading
import time
from collections.abc import Callable, Iterator

PR_SET_CHILD_SUBREAPER = 36
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGQUIT)


LIMITS = {
    "RLIMIT_CPU": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_FSIZE": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_DATA": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_AS": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_STACK": (8 << 20, resource.RLIM_INFINITY),
    "RLIMIT_CORE": (0, 0),
    "RLIMIT_NOFILE": (4096, 524288),
    "RLIMIT_NPROC": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_MEMLOCK": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
    "RLIMIT_MSGQUEUE": (819200, 819200),
    "RLIMIT_RTTIME": (resource.RLIM_INFINITY, resource.RLIM_INFINITY),
}
"""The resource limits ncu runs under, whatever the caller's (`ulimit`) were; a soft limit the
hard one forbids (without root) is lowered to the hard limit."""


def reset_limits() -> None:
    """Resource limits, niceness and CPU affinity back to a fixed start (pkexec passes the
    caller's through); best effort for a user who cannot raise a hard limit."""
    for name, (soft, hard) in LIMITS.items():
        which = getattr(resource, name, None)
        if which is None:
            continue
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(which, (soft, hard))
            continue
        with contextlib.suppress(OSError, ValueError):
            _, cur_hard = resource.getrlimit(which)
            resource.setrlimit(which, (_at_most(soft, cur_hard), cur_hard))
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def _at_most(value: int, limit: int) -> int:
    if limit == resource.RLIM_INFINITY:
        return value
    return limit if value == resource.RLIM_INFINITY else min(value, limit)


def become_subreaper() -> bool:
    """Orphans below this process (a child of ncu that called setsid and whose parent died)
    become its children, so that they can be found and ended."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        status: int = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)  # ctypes' default restype
        return status == 0
    except (OSError, AttributeError):
        return False


def unwritable_standard_fds() -> list[str]:
    """"stdout" and "stderr" where they are not open for writing: closed, or open read-only
    (pkexec passes a closed one on as /dev/null opened for reading)."""
    return [name for fd, name in ((1, "stdout"), (2, "stderr")) if not _writable(fd)]


def _writable(fd: int) -> bool:
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    except OSError:
        return False
    return flags & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)


def open_standard_fds() -> None:
    """A closed 0, 1 or 2 becomes /dev/null, so no file this opens takes its number."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def descendants(pid: int) -> list[int]:
    """Every living process below `pid`, from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] != b"Z":
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def end_descendants(rounds: int = 100) -> None:
    """Kill every process below this one and reap those that became its children. Called only
    when no subprocess of this helper is still waited on (reaping would steal its status)."""
    me = os.getpid()
    for _ in range(rounds):
        found = descendants(me)
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap()
        if not found:
            return
        time.sleep(0.02)


def _reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return

class Stop(Exception):
    """SIGTERM, SIGHUP, SIGINT or SIGQUIT reached the helper."""


class Stops:
    """The stop signals that reached the helper, handled in the main thread alone (every
    thread the helper starts blocks them, see `start_thread`). The first is kept in `signum`;
    the handler raises Stop only inside `interruptible`, and once at most: any later signal is
    only recorded, so nothing interrupts the ending. One per process, made by main(); only the
    main thread (its handler and the code it interrupts) touches it."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._raising = False

    def take(self) -> None:
        """This object handles the stop signals from now on (before any thread starts)."""
        for sig in STOP_SIGNALS:
            signal.signal(sig, self._on_stop)

    def _on_stop(self, signum: int, _frame: object) -> None:
        if self.signum is None:
            self.signum = signum
        if self._raising:
            self._raising = False
            raise Stop(signum)

    @contextlib.contextmanager
    def interruptible(self) -> Iterator[None]:
        """A block that a stop signal ends with Stop (at once, when one came before it);
        outside such blocks a stop is recorded, never raised, and the code that follows looks
        at `signum`."""
        self._raising = True
        if self.signum is not None:
            self._raising = False
            raise Stop(self.signum)
        try:
            yield
        finally:
            self._raising = False


@contextlib.contextmanager
def stop_signals_blocked() -> Iterator[None]:
    """The calling thread blocks the stop signals in this block (a thread it starts, or a
    process it forks, keeps them blocked); one that comes meanwhile waits until the end."""
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def start_thread(target: Callable[..., object], name: str, *args: object) -> threading.Thread:
    """A daemon thread that never takes a stop signal: it is started with them blocked and
    keeps its creator's mask, so the kernel hands them to the main thread alone."""
    thread = threading.Thread(target=target, name=name, args=args, daemon=True)
    with stop_signals_blocked():
        thread.start()
    return thread


def watch_stdin() -> bool:
    """The client's cancel is stdin closing; only a pipe or socket can tell us that."""
    try:
        mode = os.fstat(0).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)
