"""Hostile files refused in bounded time and memory, and files swapped while they are read: each
input made here from the shipped reports, as a damaged download or a hostile sender makes it.

A refusal is one line on stderr naming the file, exit status 1, no traceback, under REFUSE_CPU_S
of CPU time and REFUSE_MIB of memory for the whole `python -m viewer summary` run (its start
included: about 0.5 s and 80 MiB for a good file). CPU time, measured by the kernel, is the
bound: it holds on a loaded machine where wall time would not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.costs import Cost, run_viewer

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "profiles"
NAIVE_REP = PROFILES / "naive.ncu-rep"
NAIVE_CSV = PROFILES / "naive.details.csv"
NAIVE_TXT = PROFILES / "naive.details.txt"
REFUSE_CPU_S = 2.0
REFUSE_MIB = 500


def refused(path: Path, reason: str) -> Cost:
    """`summary PATH`, checked to be a bounded one-line refusal matching `reason`."""
    cost = run_viewer("summary", str(path))
    lines = cost.stderr.strip().splitlines()
    assert cost.status == 1, cost.stderr
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}: "), cost.stderr
    assert reason in lines[0], lines[0]
    assert "Traceback" not in cost.stderr and not cost.stdout.strip()
    assert cost.cpu_s < REFUSE_CPU_S, f"{cost.cpu_s:.2f} s of CPU to refuse {path.name}"
    assert cost.peak_mib < REFUSE_MIB, f"{cost.peak_mib:.0f} MiB to refuse {path.name}"
    return cost


@pytest.mark.parametrize(("name", "data"), [
    ("blank-lines.txt", b"\n" * 256_000),
    ("blank-lines-crlf.txt", b"\r\n" * 256_000),
    ("spaced-lines.txt", b" \t\n" * 256_000),
    ("a-line-of-spaces.txt", b" " * (1 << 20)),
], ids=["blank lines", "CRLF lines", "blank lines with spaces", "one line of spaces"])
def test_text_of_blanks_is_refused_at_once(tmp_path: Path, name: str, data: bytes) -> None:
    """The format checks' patterns once ran across newlines (`^\\s*`): 256,000 blank lines
    took 280 s to refuse."""
    path = tmp_path / name
    path.write_bytes(data)
    refused(path, "not an Nsight Compute report or export")
