"""Display numbers for the tests of what happens where no X server answers."""

from __future__ import annotations

import os
import socket

from viewer.core import display


def unused_display() -> int:
    """A display number no X server on this machine listens on: neither its socket file nor its
    abstract socket is there."""
    for number in range(97, 400):
        path = f"{display.X11_SOCKETS}/X{number}"
        if os.path.lexists(path):
            continue
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as taken:
            try:
                taken.bind("\0" + path)  # refused while a server holds the name
            except OSError:
                continue
        return number
    raise AssertionError("every display number from 97 to 399 is in use")
