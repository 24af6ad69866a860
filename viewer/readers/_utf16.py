"""UTF-16 text told apart from the UTF-8 every ncu export is (PowerShell 5's `>` writes UTF-16):
the one check that sniff's judging of a file and the text readers' opening of it share."""

from __future__ import annotations

UTF16_REASON = "is UTF-16 text; ncu exports are UTF-8: save the export as UTF-8"


def is_utf16(head: bytes) -> bool:
    """A UTF-16 byte order mark, or the NUL-every-other-byte pattern of UTF-16 ASCII text."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    probe = head[:512]
    if len(probe) < 8:
        return False
    even, odd = probe[0::2], probe[1::2]
    return (odd.count(0) > 0.8 * len(odd) and even.count(0) == 0) or (
        even.count(0) > 0.8 * len(even) and odd.count(0) == 0
    )
