"""The helper's stderr as events, and the words a window or a terminal shows for them.

The helper writes JSON lines on stderr (`started`, `ncu`, `sent`, `done`, `error`); `StderrLines`
turns raw bytes into those events, one bounded line at a time. `explain` words a failed exit as one
message, `progress` and `stage` word a running capture. No Qt here: viewer.capture.run.HelperRun
reads the helper's stderr through these pieces, for the terminal and the window alike.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Iterable

from viewer.capture.helper import protocol as h

MAX_LINE = 4096
"""Bytes kept of one stderr line; the helper's lines are shorter, anything longer is cut."""
MAX_KEPT = 200
"""ncu lines kept for explaining a failure (started, done and error events are always kept)."""

Event = dict[str, object]

PERMISSION = (
    "ncu printed ERR_NVGPUCTRPERM: the user running ncu does not have permission to access "
    "NVIDIA GPU Performance Counters or the Hardware Event System on the target device. "
    "Performance counters are admin-only under the stock driver default RmProfilingAdminOnly: 1. "
    "Use sudo ncu where you have root, set NVreg_RestrictProfilingToAdminUsers=0 where you own the "
    "machine, and read the shipped report where you have neither."
)
"""The lesson's sentence for ERR_NVGPUCTRPERM, with its three fixes."""


class StderrLines:
    """Bytes in, events out: `{"started": ...}`, `{"ncu": line}`, `{"done": ...}`, `{"error": ...}`,
    or `{"text": line}` for a line that is not a JSON object (`"cut": True` when it was longer
    than `max_line` bytes). A multi-byte character split across reads is decoded whole."""

    def __init__(self, max_line: int = MAX_LINE, keep: int = MAX_KEPT) -> None:
        self.max_line = max_line
        self._buf = bytearray()
        self._skipping = False  # inside the rest of a line already reported cut
        self._recent: deque[Event] = deque(maxlen=keep)
        self.started: Event | None = None
        self.done: Event | None = None
        self.error: Event | None = None

    def feed(self, data: bytes) -> list[Event]:
        """The events completed by `data`."""
        self._buf += data
        events: list[Event] = []
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                if len(self._buf) > self.max_line:
                    if not self._skipping:
                        events.append(self._cut(bytes(self._buf)))
                    self._skipping = True
                    self._buf.clear()
                break
            line = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            if self._skipping:
                self._skipping = False
                continue
            events += self._line(line)
        return self._keep(events)

    def close(self) -> list[Event]:
        """The last line, when the stream ended without a newline."""
        line, self._buf = bytes(self._buf), bytearray()
        if self._skipping:
            self._skipping = False
            return []
        return self._keep(self._line(line))

    def history(self) -> list[Event]:
        """What explain() needs: started, the latest ncu lines, then done or error."""
        head = [self.started] if self.started else []
        tail = [e for e in (self.done, self.error) if e]
        return head + list(self._recent) + tail

    def _line(self, line: bytes) -> list[Event]:
        line = line.rstrip(b"\r")
        if not line.strip():
            return []
        if len(line) > self.max_line:
            return [self._cut(line)]
        text = line.decode("utf-8", "replace")
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError):
            obj = None
        return [obj if isinstance(obj, dict) and obj else {"text": text}]

    def _cut(self, data: bytes) -> Event:
        end = self.max_line
        while end > 0 and data[end] & 0xC0 == 0x80:  # never split a UTF-8 character
            end -= 1
        return {"text": data[:end].decode("utf-8", "replace"), "cut": True}

    def _keep(self, events: list[Event]) -> list[Event]:
        for event in events:
            if "started" in event:
                self.started = event
            elif "done" in event:
                self.done = event
            elif "error" in event:
                self.error = event
            else:
                self._recent.append(event)
        return events


def _line_text(event: Event) -> str:
    value = event.get("ncu", event.get("text"))
    return value if isinstance(value, str) else ""


def _error_text(events: Iterable[Event]) -> str:
    """The helper's own sentence, else ncu's last ==ERROR== line, else ''."""
    events = list(events)
    for event in reversed(events):
        if isinstance(event.get("error"), str) and event["error"]:
            return str(event["error"]).strip().rstrip(".")
    for event in reversed(events):
        text = _line_text(event)
        if "==ERROR==" in text:
            return text.strip().rstrip(".")
    return ""


def _with(text: str, detail: str) -> str:
    return f"{text} ({detail})." if detail else f"{text}."


def explain(exit_code: int, events: Iterable[Event], route_kind: str = "direct") -> str:
    """One message for the window or terminal: what happened and what someone can do."""
    events = list(events)
    started = any("started" in e for e in events)
    detail = _error_text(events)
    permission = any(h.ERR_NVGPUCTRPERM in _line_text(e) or h.ERR_NVGPUCTRPERM in str(e.get(
        "error", "")) for e in events)
    if exit_code == h.EXIT_OK:
        return "The capture finished."
    if exit_code < 0:
        return _with(f"The capture helper was killed by signal {-exit_code}", detail)
    if exit_code in (126, 127) and not started and route_kind == "pkexec":
        if exit_code == 126:
            return "Cancelled: the password dialog was dismissed, so nothing ran."
        return ("Not authorized: polkit did not allow this capture, or no authentication agent "
                "is running to ask for an administrator's password (a desktop session starts "
                "one; an ssh or bare terminal session has none). Ask an administrator.")
    if exit_code in (126, 127):
        who = "after it had started ncu" if started else "before it started ncu"
        return _with(f"The capture helper itself exited with code {exit_code} {who}; this is "
                     "not pkexec refusing", detail)
    if exit_code == h.EXIT_NOT_PERMITTED or (permission and exit_code != h.EXIT_CANCELLED):
        if route_kind == "pkexec":
            return (PERMISSION + " Here even root was refused: in a container, whoever starts it "
                    "adds --cap-add=SYS_ADMIN.")
        return PERMISSION
    if exit_code == h.EXIT_BAD_REQUEST:
        return _with("The capture helper refused the request, and nothing ran", detail)
    if exit_code == h.EXIT_NCU_MISSING:
        return _with("Nsight Compute (ncu) was not found: an administrator installs it and runs "
                     "`sudo make install-capture NCU=/path/to/ncu` again", detail)
    if exit_code == h.EXIT_UNTRUSTED:
        return _with("The capture helper refused to run as root because a file it would run is "
                     "not root's alone: an administrator fixes its owner or mode, or runs "
                     "`sudo make install-capture` again", detail)
    if exit_code == h.EXIT_TIMEOUT:
        return (f"ncu did not finish within the helper's limit of {h.TIMEOUT_S / 60:.0f} minutes "
                f"a report ({h.MAX_RUN_S / 60:.0f} minutes a run) and was stopped; try a "
                "smaller size, fewer sizes or the basic set.")
    if exit_code == h.EXIT_NO_REPORT:
        return _with("ncu ended without a whole report to send", detail)
    if exit_code == h.EXIT_TOO_LARGE:
        return (f"The report was larger than the helper's limit of "
                f"{h.MAX_REPORT_BYTES >> 20} MiB and was dropped; try a smaller size or the "
                "basic set.")
    if exit_code == h.EXIT_CANCELLED:
        return "Cancelled: ncu was stopped and nothing was saved."
    if exit_code == h.EXIT_NOT_INSTALLED:
        return _with("The capture helper ran as root without its install: an administrator runs "
                     "`sudo make install-capture`", detail)
    if exit_code == h.EXIT_NCU_FAILED:
        return _with("ncu failed, so nothing was saved", detail)
    if exit_code == h.EXIT_FAILED:
        return _with("The capture failed", detail)
    return _with(f"The capture helper ended with an unknown exit code {exit_code}", detail)


_PROFILING = re.compile(r'==PROF== Profiling "([^"]*)"[^:]*:\s*(.*?)(?:\s*-\s*(\d+) passes?)?\s*$')
_PERCENT = re.compile(r"(\d{1,3})%")


def progress(event: Event) -> tuple[str, float | None] | None:
    """Words for a running capture and, where known, the fraction done (0..1); None for an
    event that says nothing about progress."""
    info = event.get("started")
    if isinstance(info, dict):
        return f"starting ncu: {info.get('target', '?')} kernel at {info.get('dim', '?')}", 0.02
    sent = event.get("sent")
    if isinstance(sent, dict) and isinstance(sent.get("bytes"), int):
        return (f"{sent.get('target', '?')} at {sent.get('dim', '?')}: report received "
                f"({sent['bytes']:,} bytes)"), 1.0
    done = event.get("done")
    if isinstance(done, dict):
        size, reports = done.get("bytes"), done.get("reports")
        what = (f"{len(reports)} reports" if isinstance(reports, list) and len(reports) > 1
                else "report")
        return (f"{what} received ({size:,} bytes)" if isinstance(size, int)
                else f"{what} received"), 1.0
    text = event.get("ncu")
    if not isinstance(text, str):
        return None
    text = text.strip()
    if text.startswith("==PROF== Connected"):
        return "ncu connected to the kernel program", 0.05
    match = _PROFILING.match(text)
    if match:
        kernel, dots, passes = match.groups()
        words = f"collecting counters for {kernel}" + (f": {dots}" if dots else "")
        if passes:
            words += f" ({passes} passes)"
        percents = _PERCENT.findall(dots)
        done = min(100, int(percents[-1])) / 100 if percents else 0.0
        return words, 0.1 + 0.8 * done
    if text.startswith("==PROF== Disconnected"):
        return "ncu finished collecting; writing the report", 0.92
    if text.startswith("==PROF== Report"):
        return "report written", 0.95
    if text.startswith("==WARNING=="):
        return "ncu warning: " + text.removeprefix("==WARNING==").strip(), None
    if text.startswith("==ERROR=="):
        return "ncu error: " + text.removeprefix("==ERROR==").strip(), None
    return None


def stage(event: Event) -> str | None:
    """progress()'s words alone."""
    found = progress(event)
    return found[0] if found else None
