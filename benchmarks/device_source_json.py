"""`python -m viewer source FILE --json` beside ncu's own source page export of the same report,
on the GPU machine (about a minute). For each shipped report, best of three of each, interleaved:
ours; `ncu --import FILE --page source --csv --print-source sass`; the same with `cuda,sass`
(which gives the source lines, as ours does). Wall seconds of each process, and the ratios.
The reader's child imports the ncu_report package on PYTHONPATH, else that of the ncu that runs
here (its extras/python).

    python3 benchmarks/device_source_json.py OUT     (from the repository root)

Prints one table and asserts nothing; OUT gets each report's JSON and ncu's sass export.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ncu_report_folder(ncu: str) -> str:
    """ncu's own extras/python, which holds its ncu_report package."""
    here = Path(ncu).resolve().parent
    for candidate in (here / "extras" / "python", here.parent / "extras" / "python"):
        if (candidate / "ncu_report").is_dir():
            return str(candidate)
    return ""


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, env=env, cwd=ROOT, check=False)
    seconds = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr.decode()[-400:]}")
    return seconds, done.stdout


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "out")
    out.mkdir(parents=True, exist_ok=True)
    ncu = shutil.which("ncu")
    if ncu is None:
        sys.exit("no ncu on PATH")
    env = dict(os.environ)
    extras = ncu_report_folder(ncu)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (env.get("PYTHONPATH", ""), extras) if p)
    version = subprocess.run([ncu, "--version"], capture_output=True, text=True).stdout
    found = subprocess.run([sys.executable, "-c", "import ncu_report; print(ncu_report.__file__)"],
                           capture_output=True, text=True, env=env).stdout.strip()
    print(f"ncu {ncu}: {version.strip().splitlines()[-1]}; ncu_report {found or 'not found'}")
    print(f"{'report':16} {'ours s':>8} {'ncu sass s':>11} {'ncu cuda,sass s':>16} "
          f"{'ours/sass':>10} {'ours/cuda,sass':>15}")
    for kernel in ("naive", "tiled"):
        report = f"profiles/{kernel}.ncu-rep"
        variants = {
            "ours": [sys.executable, "-m", "viewer", "source", report, "--json"],
            "sass": [ncu, "--import", report, "--page", "source", "--csv",
                     "--print-source", "sass"],
            "cuda,sass": [ncu, "--import", report, "--page", "source", "--csv",
                          "--print-source", "cuda,sass"],
        }
        best: dict[str, float] = {}
        for round_ in range(3):  # interleaved, so drift hits each alike
            for name, argv in variants.items():
                seconds, printed = timed(argv, env)
                best[name] = min(best.get(name, seconds), seconds)
                if round_ == 0 and name != "cuda,sass":
                    suffix = "source.json" if name == "ours" else "source.csv"
                    (out / f"{kernel}.{suffix}").write_bytes(printed)
        print(f"{kernel + '.ncu-rep':16} {best['ours']:8.3f} {best['sass']:11.3f} "
              f"{best['cuda,sass']:16.3f} {best['ours'] / best['sass']:10.2f} "
              f"{best['ours'] / best['cuda,sass']:15.2f}")
        corpus = ROOT / "tests" / "data" / "corpus" / "h200" / f"numba-{kernel}-lineinfo.source.csv"
        same = (out / f"{kernel}.source.csv").read_bytes() == corpus.read_bytes()
        print(f"  ncu's sass export here {'is' if same else 'is NOT'} the corpus's, byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
