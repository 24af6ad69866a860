"""Write profiles/metadata.json from what the capture machine reports about itself.

Run by benchmarks/device_capture.sh after the captures, on the same machine:

    python3 benchmarks/capture_metadata.py OUT.json --command "ncu ..." [--command ...]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from viewer.kernels.ncu_command import CLOCK_CONTROL, LESSON_METRICS, launch_skip
from viewer.kernels.runner import CORRECTNESS_LAUNCHES, TIMED_LAUNCHES, WARMUP_LAUNCHES


def _run(*argv: str) -> str:
    try:
        return subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return ""


def _version(package: str) -> str | None:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def gpu() -> dict:
    """Name, driver and CUDA version as nvidia-smi prints them; None where it prints nothing."""
    query = _run("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader")
    name, driver = (None, None)
    if query.strip():
        name, driver = (part.strip() for part in query.splitlines()[0].split(",", 1))
    banner = re.search(r"CUDA Version:\s*([\d.]+)", _run("nvidia-smi"))
    return {
        "name": name,
        "driver": driver,
        "cuda_driver_api": banner.group(1) if banner else None,
    }


def tool_version(text: str) -> str | None:
    """The line that names the version, as `ncu --version` ("Version 2025.3.1.0 ...") and
    `nvcc --version` ("Cuda compilation tools, release 13.0, V13.0.88") print it."""
    lines = [line.strip() for line in text.splitlines() if re.search(r"[Vv]ersion|release", line)]
    lines = [line for line in lines if re.search(r"\d+\.\d+", line)]
    return lines[-1] if lines else None


def collect(commands: list[str]) -> dict:
    return {
        "gpu": gpu(),
        "nvcc": tool_version(_run("nvcc", "--version")),
        "ncu": tool_version(_run("ncu", "--version")),
        "clock_control": CLOCK_CONTROL,
        "launch_order": {
            "correctness": CORRECTNESS_LAUNCHES,
            "warmup": WARMUP_LAUNCHES,
            "timed": TIMED_LAUNCHES,
            "launch_skip": launch_skip(),
            "launch_count": 1,
        },
        "lesson_metrics": list(LESSON_METRICS),
        "python": platform.python_version(),
        "packages": {p: _version(p) for p in ("numba", "numba-cuda", "numpy")},
        "kernel": platform.release(),
        "captured_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "commands": commands,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--command", action="append", default=[])
    args = parser.parse_args()
    args.out.write_text(json.dumps(collect(args.command), indent=2) + "\n")
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
