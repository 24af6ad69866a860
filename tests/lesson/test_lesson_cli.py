"""`python -m viewer lesson`: the shipped pair, any two files of the lesson's kernels, the T4 table
itself, and a plain refusal for files that are not the lesson's kernels."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from viewer import cli

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
PUBLIC = ROOT / "tests" / "data" / "corpus" / "ncu-public"


def lesson(*args: str | Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    parsed = cli.parse(["lesson", *map(str, args)])
    status = parsed.run(parsed, out, err)
    return status, out.getvalue(), err.getvalue()


def test_the_shipped_pair_prints_the_table_the_reference_and_the_exercise() -> None:
    done = subprocess.run([sys.executable, "-m", "viewer", "lesson"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "matmul_naive and matmul_tiled, 512 x 512 x 512 on 16 x 16 tiles" in out
    assert ("naive   Global load requests             8,388,608    8,388,608        0 %    yes"
            "        8,388,608") in out
    assert "Speed: Duration differs by 1.43x, sectors moved by 8.00x." in out
    assert "The published T4 reference (t4-reference.toml)" in out
    assert "On the T4: Duration differs by 1.58x to 1.59x" in out
    assert "Different clock controls" in out
    assert "answered by the row: DRAM Throughput (sol); L1/TEX Cache Throughput (sol)" in out
    assert "part 1, the row that explains it: Sectors moved (global loads) (memory)\n" in out
    assert ("part 2, the row that cannot: Global load requests (memory); Shared load "
            "instructions") in out
    assert "dram__" not in out.split("Exercise:")[1]  # rows named in words, not by metric


def test_json_is_one_object_with_the_four_parts() -> None:
    status, out, _ = lesson("--json")
    assert status == 0
    page = json.loads(out)
    assert list(page) == ["schema", "reveal", "speed", "reference", "exercise"]
    assert page["schema"] == 2
    rows = page["reveal"]["rows"]
    assert len(rows) == 8 and all(r["match"] in (True, None) for r in rows)
    assert [r["t4"] for r in rows if r["quantity"] == "sectors"] == [16_777_077, 2_083_878]
    assert page["speed"]["sector_ratio"] == 8.0
    assert len(page["reference"]["rows"]) == 12
    q2, q4 = page["exercise"]["questions"][1], page["exercise"]["questions"][3]
    assert all(o["explanation"] and o["target"]["step"] == "none" for o in q4["options"])
    assert [p["id"] for p in q2["parts"]] == ["explains", "cannot"] and q4["parts"] == []
    assert {o["target"]["label"] for o in q2["options"]
            if o["part"] == "cannot" and o["correct"]} >= {"Global load requests",
                                                           "DRAM bytes moved"}
    # question 2 in this pair's counters: 640 shared loads per thread, not the lesson's 1,024
    assert "matmul_tiled 64 global and 640 shared, 704 load instructions" in q2["in_this_report"]
    assert "The lesson counts 1,024 shared loads per thread in the source" in (
        q2["in_this_report"])


def test_any_two_files_of_the_lessons_kernels_in_any_order_and_format() -> None:
    status, out, err = lesson("--json", H200 / "numba-tiled.details.txt",
                              H200 / "numba-naive.raw.csv")
    assert status == 0, err
    reveal = json.loads(out)["reveal"]
    assert reveal["sources"] == [str(H200 / "numba-tiled.details.txt"),
                                 str(H200 / "numba-naive.raw.csv")]
    assert reveal["kernels"] == {
        "naive": {"source": str(H200 / "numba-naive.raw.csv"), "index": 0,
                  "name": "matmul_naive"},
        "tiled": {"source": str(H200 / "numba-tiled.details.txt"), "index": 0,
                  "name": "matmul_tiled"}}
    assert [r["kernel"] for r in reveal["rows"]] == ["naive"] * 4 + ["tiled"] * 4
    assert all(r["reading"] == "to the digit" for r in reveal["rows"]
               if r["quantity"] in ("requests", "sectors"))


def test_the_t4_table_is_a_pair_of_its_own() -> None:
    status, out, err = lesson(ROOT / "profiles" / "t4-reference.toml")
    assert status == 0, err
    assert "a hair under: 139 sectors" in out
    assert "4.74 MB against the 3,145,728-byte floor: 1.51x" in out


@pytest.mark.parametrize(("files", "said"), [
    ([PUBLIC / "new-2025-details-naive-gemm-single-kernel-cc86.txt"],
     "these are not the lesson's two kernels: no naive and no tiled matmul of the lesson among "
     "them"),
    ([H200 / "numba-naive.ncu-rep"], "no tiled matmul of the lesson among them"),
    ([H200 / "numba-naive.ncu-rep", H200 / "numba-naive.details.txt", H200 / "numba-tiled.raw.csv"],
     "more than one naive kernel"),
    ([H200 / "missing.ncu-rep"], "missing.ncu-rep: no such file"),
])
def test_files_that_are_not_the_lessons_kernels_are_said_plainly(files: list[Path],
                                                                 said: str) -> None:
    status, out, err = lesson(*files)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("lesson: ") and said in err


def test_lesson_is_a_command_of_the_tree() -> None:
    assert "lesson" in cli.COMMANDS
    assert "lesson" in cli.parser().format_help()


def test_a_1024_pair_says_its_size_before_setting_the_t4_beside_it(pair_1024) -> None:
    """N = 1024 (made from the 512 exports, tests/lesson/conftest.py) beside the T4's 512."""
    status, out, err = lesson(*pair_1024)
    assert status == 0, err
    assert "match      T4 at N=512" in out
    assert "The T4 column is the lesson's table at N = 512, not this pair's N = 1024" in out
    assert "T4 at N = 512, here at N = 1024: each report's own values" in out
    assert "Sizes differ: the T4 table is N = 512, this pair N = 1024" in out
    assert "sectors per request, derived                              2.0          4.0" in out
    assert ("request and sector counts do at one size, and these are N = 512 and N = 1024, so "
            "theirs differ by the size as well") in " ".join(out.split())
