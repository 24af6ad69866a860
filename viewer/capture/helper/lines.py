"""The helper's JSON lines on stderr, written by a thread of their own, so that saying
something never blocks the capture or its time limit."""

from __future__ import annotations

import json
import os
import threading
import time

from .supervision import start_thread

MAX_QUEUED_LINES = 256
"""JSON lines waiting for a client that does not read stderr; further progress lines are dropped."""


class Lines:
    """JSON lines on stderr, written by a thread of their own: `emit` never blocks. While
    MAX_QUEUED_LINES wait for a client that does not read, progress lines are dropped; a
    `final` line (done, error) is always queued."""

    def __init__(self, fd: int = 2) -> None:
        self.fd = fd
        self.dropped = 0
        self._queue: list[bytes] = []
        self._cond = threading.Condition()
        self._closed = False
        self._thread = start_thread(self._write, "lines")

    def emit(self, final: bool = False, **event: object) -> None:
        data = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8", "replace")
        with self._cond:
            if self._closed:
                return
            if len(self._queue) >= MAX_QUEUED_LINES and not final:
                self.dropped += 1
                return
            self._queue.append(data)
            self._cond.notify()

    def flush(self, timeout: float) -> None:
        """Wait until every queued line is written, at most `timeout` seconds."""
        end = time.monotonic() + timeout
        with self._cond:
            while self._queue and not self._closed:
                left = end - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(left)

    def _write(self) -> None:
        while True:
            with self._cond:
                while not self._queue:
                    self._cond.wait()
                data = self._queue[0]
            try:
                while data:
                    data = data[os.write(self.fd, data):]
            except OSError:  # the reader is gone: nothing more can be said
                with self._cond:
                    self._closed = True
                    self._queue.clear()
                    self._cond.notify_all()
                return
            with self._cond:
                self._queue.pop(0)
                self._cond.notify_all()
