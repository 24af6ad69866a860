"""What a .ncu-rep holds beyond metric values, read in the reader's child (ncu_rep_child).

- `rules`: ncu's rule results (`IAction.rule_results_as_dicts()`: rule, section, title, message,
  message type, estimated speedup, focus metrics) as plain JSON, every non-finite number None.
- `instances`: the instance values of instanced metrics (ncu's occupancy curves:
  `launch__occupancy_per_block_size` holds one value per block size) as {"x": correlation ids,
  "y": values}, both in base units.
- `about`: each metric's unit as ncu spells it, its label and its description.

The parent asks for them in the child's request file: {"extras": {"rules": true, "instances":
[...], "about": true}}; each kernel record then carries the keys asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from viewer.core.units import unit_scale

# At most this many instance values of one metric are sent (ncu's curves hold a few hundred).
MAX_INSTANCES = 100_000
# Texts longer than this are cut (a rule message is a paragraph; a description a few lines).
MAX_TEXT = 20_000


def plain(value: Any, depth: int = 0) -> Any:
    """`value` as JSON the parent can take: non-finite numbers None, other objects their text."""
    if depth > 8:
        return None
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return value[:MAX_TEXT]
    if isinstance(value, Mapping):
        return {str(k): plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v, depth + 1) for v in value]
    return str(value)[:MAX_TEXT]


def rules(action: Any) -> list[Any]:
    """The kernel's rule results as plain JSON ([] when ncu ran no rule on it)."""
    results = getattr(action, "rule_results_as_dicts", None)
    return plain(list(results())) if results is not None else []


def _values(metric: Any, count: int) -> list[float | None]:
    scaled = unit_scale(metric.unit() or "")  # None: a unit not understood, no value
    scale = math.nan if scaled is None else scaled[0]
    out: list[float | None] = []
    for i in range(count):
        value = metric.as_double(i) * scale
        out.append(value if math.isfinite(value) else None)
    return out


def instances(action: Any, names: Iterable[str]) -> dict[str, dict[str, list[float | None]]]:
    """{name: {"x": [...], "y": [...]}} for each of `names` the kernel holds with instances; x is
    the instances' correlation ids (a block size, a register count), else their positions."""
    found = {}
    for name in names:
        metric = action.metric_by_name(name)
        count = 0 if metric is None else min(int(metric.num_instances()), MAX_INSTANCES)
        if count <= 0:
            continue
        ids = metric.correlation_ids() if metric.has_correlation_ids() else None
        xs: list[float | None] = (_values(ids, count) if ids is not None
                                  else [float(i) for i in range(count)])
        found[name] = {"x": xs, "y": _values(metric, count)}
    return found


About = Callable[[str, Any], list[str]]
"""A metric's [unit as ncu spells it, label, description] from its name and its IMetric."""


def texts(name: str, metric: Any) -> list[str]:
    """[unit as ncu spells it, label, description] of `metric`, each cut at MAX_TEXT."""
    return [str(text or "")[:MAX_TEXT] for text in (
        metric.unit(), metric.label(), metric.description())]


def about(action: Any, of: About = texts) -> dict[str, list[str]]:
    """{name: [unit as ncu spells it, label, description]} of every metric the kernel holds;
    `of` says them for one metric (ncu_rep_child's MetricReader keeps them per name)."""
    found = {}
    for name in action.metric_names():
        metric = action.metric_by_name(name)
        if metric is None:
            continue
        found[name] = of(name, metric)
    return found


def extras(action: Any, asked: Mapping[str, Any], of: About = texts) -> dict[str, Any]:
    """The parts of one kernel's record that `asked` (the request's "extras") names. A part
    ncu_report fails to decode is left out (the parent then says the report holds none we read),
    not taken for a corrupt report: its metrics were read."""
    parts: dict[str, Callable[[], Any]] = {}
    if asked.get("rules"):
        parts["rules"] = lambda: rules(action)
    names = [str(n) for n in asked.get("instances") or ()]
    if names:
        parts["instances"] = lambda: instances(action, names)
    if asked.get("about"):
        parts["about"] = lambda: about(action, of)
    record: dict[str, Any] = {}
    for key, read in parts.items():
        try:
            record[key] = read()
        except MemoryError:
            raise
        except Exception:
            continue
    return record
