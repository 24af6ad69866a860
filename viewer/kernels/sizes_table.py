"""`python -m viewer.kernels time --dim LIST`'s table: per size each kernel's median and spread
(min..max and relative deviation), the naive / tiled ratio, and whether the point is stable."""

from __future__ import annotations

from viewer.core import formatting as fmt
from viewer.core.formatting import MISSING
from viewer.kernels.sizes import (
    DEVIATION_DEFINITION,
    DEVIATION_NAME,
    STABLE_MAX,
    SizesTiming,
    SizeTiming,
    Spread,
)


def ms(value: float) -> str:
    """Milliseconds to four significant digits, plain ('0.05894', '46.25')."""
    return f"{value:.4g}"


def percent(deviation: float | None) -> str:
    return MISSING if deviation is None else f"{deviation * 100:.1f}%"


def spread_text(spread: Spread) -> str:
    """'0.0587..0.0602 1.2%': min..max of the timed launches and their relative deviation."""
    return f"{ms(spread.min_ms)}..{ms(spread.max_ms)} {percent(spread.deviation)}"


def stable_text(size: SizeTiming) -> str:
    """'yes', 'NO (naive 3.1%)' naming the kernels over the limit, or n/a where undefined."""
    over = [f"{s.kernel} {percent(s.deviation)}" for s in size.spreads if s.stable is False]
    if over:
        return f"NO ({', '.join(over)})"
    return "yes" if size.stable else MISSING


def table_lines(timing: SizesTiming) -> list[str]:
    """The heading, one row per size, then the failures and unstable points said in words."""
    kernels = timing.kernels
    first, second = (*kernels, "", "")[:2]
    lines = [
        f"{timing.device}, float32 N x N x N. Per kernel and size: the median of its timed "
        "launches (GPU time between two events around one launch), their min..max and "
        f"{DEVIATION_NAME} ({DEVIATION_DEFINITION}); stable: every kernel's at most "
        f"{STABLE_MAX:.0%}.",
    ]
    header = f"{'N':>6}"
    for name in kernels:
        header += f"{name + ' ms':>12}  {name + ' spread':<24}"
    header += f"{f'{first}/{second}':>12}  stable"
    lines.append(header)
    for size in timing.sizes:
        row = f"{size.dim:>6}"
        for spread in size.spreads:
            row += f"{ms(spread.median_ms):>12}  {spread_text(spread):<24}"
        row += f"{fmt.ratio(size.ratio):>12}  {stable_text(size)}"
        lines.append(row)
    failed = [f"{s.kernel} at {s.dim}" for size in timing.sizes for s in size.spreads
              if not s.passed]
    if failed:
        lines.append(f"FAILED: {', '.join(failed)} computed a wrong product (see `time --dim N` "
                     "at that size for the check).")
    unstable = unstable_text(timing)
    if unstable:
        lines.append(unstable)
    return lines


def unstable_text(timing: SizesTiming) -> str:
    """Which points are over the limit and what that means; '' where none is."""
    unstable = timing.unstable()
    if not unstable:
        return ""
    points = ", ".join(f"{s.kernel} at {s.dim} ({percent(s.deviation)})" for s in unstable)
    return (f"Over {STABLE_MAX:.0%} {DEVIATION_NAME}: {points}. Their timed launches varied more "
            "than a steady GPU's do: run again, or the machine is busy with other work.")
