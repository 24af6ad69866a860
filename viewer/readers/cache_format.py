"""A Report as bytes and back, for the cache of what was read (viewer.readers.read_cache).

The entry is data, never code: a magic line, the schema number, a blake2b digest of the body and
the body, zlib-compressed JSON holding the entry's key and the report. `decode` checks all of it
and every value's type, and raises BadEntry for anything else: a damaged, cut, foreign,
wrong-version or wrong-key entry is never trusted.

Every field of Report and Kernel is kept: the metric values as the doubles they were (their
tables of names shared by the kernels that shared them), the printed units (each distinct one,
and each distinct kernel's set of them, once), the rules as the JSON dicts they are.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sys
import zlib
from array import array
from collections.abc import Mapping, Sequence
from typing import Any

from viewer.core.model import Kernel, Metrics, Printed, Report, Session

MAGIC = b"ncu-reader read cache\n"
SCHEMA = 1
_DIGEST = 32
MAX_PLAIN = 1 << 30  # an entry that unpacks to more than this is refused
REPORT_FIELDS = ("source", "format", "kernels", "skipped", "stamp", "session", "notes",
                 "cut_short")
KERNEL_FIELDS = ("index", "name", "display_name", "grid", "block", "device_id", "device_name",
                 "cc", "metrics", "read_names", "position", "printed", "rules")
SESSION_FIELDS = ("clock_control", "clock_source", "ncu_version", "cuda_version", "created",
                  "command_line", "warning")


class BadEntry(ValueError):
    """An entry that is not one this schema wrote for this key."""


def encode(report: Report, key: Mapping[str, object]) -> bytes:
    """`report` and its `key` as an entry's bytes."""
    tables: dict[int, int] = {}
    table_list: list[Mapping[str, int]] = []
    printed: dict[Printed, int] = {}
    maps: dict[tuple[tuple[str, int], ...], int] = {}
    kernels = [_kernel_data(k, tables, table_list, printed, maps) for k in report.kernels]
    data = {
        "key": dict(key),
        "report": {
            "format": report.format, "skipped": report.skipped,
            "stamp": None if report.stamp is None else list(report.stamp),
            "session": None if report.session is None
            else {name: getattr(report.session, name) for name in SESSION_FIELDS},
            "notes": report.notes, "cut_short": report.cut_short,
            "tables": [dict(t) for t in table_list],
            "printed": [[p.unit, p.label, p.section, p.value] for p in printed],
            "printed_maps": [dict(m) for m in maps],
            "kernels": kernels,
        },
    }
    body = zlib.compress(json.dumps(data, separators=(",", ":")).encode("utf-8"), 1)
    digest = hashlib.blake2b(body, digest_size=_DIGEST).digest()
    return MAGIC + SCHEMA.to_bytes(2, "big") + digest + body


def _doubles(values: Sequence[float]) -> str:
    packed = array("d", (float(v) for v in values))
    if sys.byteorder != "little":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def _kernel_data(kernel: Kernel, tables: dict[int, int], table_list: list[Mapping[str, int]],
                 printed: dict[Printed, int], maps: dict[tuple[tuple[str, int], ...], int]
                 ) -> dict[str, Any]:
    metrics: dict[str, Any]
    if isinstance(kernel.metrics, Metrics):
        slots, values = kernel.metrics.parts()
        if id(slots) not in tables:
            tables[id(slots)] = len(table_list)
            table_list.append(slots)
        metrics = {"table": tables[id(slots)], "values": _doubles(values)}
    else:
        metrics = {"map": dict(kernel.metrics)}
    return {
        "index": kernel.index, "name": kernel.name, "display_name": kernel.display_name,
        "grid": kernel.grid, "block": kernel.block, "device_id": kernel.device_id,
        "device_name": kernel.device_name, "cc": kernel.cc, "metrics": metrics,
        "read_names": None if kernel.read_names is None else sorted(kernel.read_names),
        "position": kernel.position,
        "printed": maps.setdefault(
            tuple((name, printed.setdefault(p, len(printed)))
                  for name, p in kernel.printed.items()), len(maps)),
        "rules": kernel.rules,
    }


def decode(data: bytes, key: Mapping[str, object], source: str) -> Report:
    """The Report an entry holds, named `source`; BadEntry unless it is whole, of this schema
    and for `key`."""
    head = len(MAGIC) + 2 + _DIGEST
    if len(data) < head or not data.startswith(MAGIC):
        raise BadEntry("not an entry")
    if int.from_bytes(data[len(MAGIC):len(MAGIC) + 2], "big") != SCHEMA:
        raise BadEntry("another schema")
    body = data[head:]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != data[head - _DIGEST:head]:
        raise BadEntry("damaged")
    try:
        unpack = zlib.decompressobj()
        plain = unpack.decompress(body, MAX_PLAIN)
        if unpack.unconsumed_tail or not unpack.eof:
            raise BadEntry("cut or too large")
        whole = json.loads(plain)
    except (zlib.error, ValueError) as exc:
        raise BadEntry(f"unreadable: {exc}") from None
    whole = _dict(whole)
    if whole.get("key") != dict(key):
        raise BadEntry("another key")
    return _report(_dict(whole.get("report")), source)


def _report(data: dict[str, Any], source: str) -> Report:
    tables = [_slots(t) for t in _list(data.get("tables"))]
    printed = [_printed(p) for p in _list(data.get("printed"))]
    maps = [{_str(name): _at(printed, i) for name, i in _dict(m).items()}
            for m in _list(data.get("printed_maps"))]
    kernels = [_kernel(_dict(k), tables, maps) for k in _list(data.get("kernels"))]
    stamp = data.get("stamp")
    session = data.get("session")
    return Report(
        source=source, format=_str(data.get("format")), kernels=kernels,
        skipped={_str(k): _int(v) for k, v in _dict(data.get("skipped")).items()},
        stamp=None if stamp is None else tuple(_int(v) for v in _list(stamp)),
        session=None if session is None else Session(
            **{name: _opt_str(_dict(session).get(name)) for name in SESSION_FIELDS}),
        notes=[_str(n) for n in _list(data.get("notes"))],
        cut_short=[_str(n) for n in _list(data.get("cut_short"))],
    )


def _kernel(data: dict[str, Any], tables: list[dict[str, int]],
            printed: list[dict[str, Printed]]) -> Kernel:
    read_names = data.get("read_names")
    rules = data.get("rules")
    return Kernel(
        index=_int(data.get("index")), name=_str(data.get("name")),
        display_name=_str(data.get("display_name")),
        grid=_dim3(data.get("grid")), block=_dim3(data.get("block")),
        device_id=_opt_int(data.get("device_id")), device_name=_opt_str(data.get("device_name")),
        cc=_opt_str(data.get("cc")), metrics=_metrics(_dict(data.get("metrics")), tables),
        read_names=None if read_names is None
        else frozenset(_str(n) for n in _list(read_names)),
        position=_opt_int(data.get("position")),
        printed=dict(_at(printed, data.get("printed"))),  # each kernel's own
        rules=None if rules is None else [_dict(r) for r in _list(rules)],
    )


def _metrics(data: dict[str, Any], tables: list[dict[str, int]]) -> Mapping[str, float]:
    if "map" in data:
        return {_str(name): _number(v) for name, v in _dict(data["map"]).items()}
    try:
        packed = base64.b64decode(_str(data.get("values")), validate=True)
        values = array("d")
        values.frombytes(packed)
    except ValueError as exc:
        raise BadEntry(f"values unreadable: {exc}") from None
    if sys.byteorder != "little":
        values.byteswap()
    return Metrics(_at(tables, data.get("table")), values)


def _slots(value: object) -> dict[str, int]:
    slots = {_str(name): _int(slot) for name, slot in _dict(value).items()}
    if any(slot < 0 for slot in slots.values()):
        raise BadEntry("a negative slot")
    return slots


def _printed(value: object) -> Printed:
    parts = _list(value)
    if len(parts) != 4:
        raise BadEntry("a printed unit of another shape")
    return Printed(_str(parts[0]), _opt_str(parts[1]), _opt_str(parts[2]), _opt_str(parts[3]))


def _at(items: list[Any], index: object) -> Any:
    i = _int(index)
    if not 0 <= i < len(items):
        raise BadEntry("an index out of range")
    return items[i]


def _dim3(value: object) -> tuple[int, int, int] | None:
    if value is None:
        return None
    parts = [_int(v) for v in _list(value)]
    if len(parts) != 3:
        raise BadEntry("a dimension of another shape")
    return (parts[0], parts[1], parts[2])


def _dict(value: object) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadEntry("an object expected")
    return value


def _list(value: object) -> list[Any]:
    if not isinstance(value, list):
        raise BadEntry("a list expected")
    return value


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise BadEntry("a string expected")
    return value


def _opt_str(value: object) -> str | None:
    return None if value is None else _str(value)


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadEntry("an integer expected")
    return value


def _opt_int(value: object) -> int | None:
    return None if value is None else _int(value)


def _number(value: object) -> float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise BadEntry("a number expected")
    return value
