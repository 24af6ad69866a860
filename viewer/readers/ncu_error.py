"""ncu's own error text, saved where a report or export was expected.

A capture that failed (no permission for the performance counters, an application that crashed, a
report that could not be opened) leaves a file holding ncu's `==ERROR==` lines and no kernel. The
app quotes ncu's words rather than guessing at a cause.
"""

from __future__ import annotations

import re
from pathlib import Path

_ERROR = re.compile(r"^[ \t]*==ERROR==[ \t]*(\S.*?)[ \t]*$", re.MULTILINE)
_NO_KERNELS = re.compile(r"^[ \t]*==WARNING==[ \t]*(No kernels were profiled\.?)", re.MULTILINE)
_PERMISSION = "ERR_NVGPUCTRPERM"

# How much of a file to search for ncu's messages: its head and its tail.
SEARCH_BYTES = 1 << 20
MAX_QUOTE_CHARS = 400


def ncu_errors(text: str) -> list[str]:
    """ncu's `==ERROR==` messages in `text`, in order, without the marker."""
    return [m.group(1) for m in _ERROR.finditer(text)]


def ncu_message(text: str) -> str | None:
    """The ncu message to quote for `text`, or None when it holds none.

    ERR_NVGPUCTRPERM names the cause whatever follows it, so it is quoted first; otherwise the first
    error, since the later ones ("The application returned an error code", "An error occurred while
    trying to profile") are usually its consequences. With no error, ncu's "No kernels were
    profiled" warning is the message.
    """
    errors = ncu_errors(text)
    if errors:
        first = next((e for e in errors if _PERMISSION in e), errors[0])
        quote = first if len(first) <= MAX_QUOTE_CHARS else first[: MAX_QUOTE_CHARS - 3] + "..."
        quoted = 1
        for follow_up in errors[errors.index(first) + 1:]:  # ncu's next lines explain the first
            if len(quote) + 1 + len(follow_up) > MAX_QUOTE_CHARS:
                break
            quote += " " + follow_up
            quoted += 1
        more = len(errors) - quoted
        return quote + (f" (and {more} more ncu error{'s' if more > 1 else ''})" if more else "")
    warning = _NO_KERNELS.search(text)
    return warning.group(1) if warning else None


def reason(text: str) -> str | None:
    """A ReportError reason quoting ncu, or None when `text` holds no ncu message."""
    message = ncu_message(text)
    if message is None:
        return None
    return f'ncu reported an error and the file holds no kernel: "{message}"'


def file_reason(path: Path) -> str | None:
    """Like `reason`, for the head and tail of the file at `path` (None if it cannot be read)."""
    try:
        with path.open("rb") as f:
            head = f.read(SEARCH_BYTES)
            f.seek(0, 2)
            size = f.tell()
            tail = b""
            if size > SEARCH_BYTES:
                f.seek(max(SEARCH_BYTES, size - SEARCH_BYTES))
                tail = f.read(SEARCH_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8", "replace") + "\n" + tail.decode("utf-8", "replace")
    return reason(text)
