"""A planted capture install for tests: a copy of the helper, its capture.json and a fake ncu.

The fake ncu stands in for what this machine lacks (a GPU and Nsight Compute). It is a small Python
program written per test from one behaviour; it records the argv it got and its pid, so a test can
check what the helper ran and that nothing was left running.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import venv
from dataclasses import dataclass
from pathlib import Path

from viewer.capture.helper import bundle

REPORT = Path(__file__).resolve().parents[1] / "profiles" / "naive.ncu-rep"

# What the fake ncu does for a capture, after recording its argv. `out` is the report path ncu was
# told to write (the -o value plus .ncu-rep); `report` the real shipped report to copy.
BEHAVIOURS = {
    "success": """
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        print('==PROF== Profiling "matmul_naive" - 0: 0%....50%....100% - 38 passes', flush=True)
        shutil.copyfile(report, out)
        print("==PROF== Disconnected from process 4242", flush=True)
        print("==PROF== Report: " + out, flush=True)
    """,
    "not_permitted": """
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        print("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU"
              " Performance Counters on the target device 0.", flush=True)
        sys.exit(1)
    """,
    "hang": """
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        time.sleep(600)
    """,
    "huge": """
        with open(out, "wb") as f:
            f.write(b"NVR\\0")
            f.truncate((256 << 20) + 1)
    """,
    "symlink": """
        with open(out + ".real", "wb") as f:
            f.write(open(report, "rb").read())
        os.symlink(out + ".real", out)
    """,
    "crash": """
        with open(out, "wb") as f:
            f.write(open(report, "rb").read()[:5000])
        os.kill(os.getpid(), signal.SIGSEGV)
    """,
    "exit_3": """
        shutil.copyfile(report, out)
        print("==ERROR== something went wrong", flush=True)
        sys.exit(3)
    """,
    "program_fails": """
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        print("Traceback (most recent call last):", flush=True)
        print('  File "<frozen runpy>", line 198, in _run_module_as_main', flush=True)
        print("ModuleNotFoundError: No module named 'numba'", flush=True)
        shutil.copyfile(report, out)
        print("==ERROR== The application returned an error code (1).", flush=True)
    """,
    "lock_dir": """
        # What ncu 2025.3.1 does on start (docs/capture.md): $TMPDIR/nvidia/nsight_compute,
        # made 0777 through any link, with 0666 lock files. SHARED_TMP stands in for /tmp.
        lock = os.path.join(os.environ.get("TMPDIR", SHARED_TMP), "nvidia", "nsight_compute")
        os.makedirs(lock, exist_ok=True)
        os.chmod(lock, 0o777)
        with open(os.path.join(lock, "lock"), "w"):
            pass
        os.chmod(os.path.join(lock, "lock"), 0o666)
        st = os.stat(os.environ.get("TMPDIR", SHARED_TMP))
        print("tmpdir " + json.dumps([st.st_uid, stat.S_IMODE(st.st_mode)]), flush=True)
        shutil.copyfile(report, out)
    """,
    "chatty": """
        for i in range(200000):
            print("==PROF== line %d %s" % (i, "x" * 400), flush=False)
        sys.stdout.flush()
        time.sleep(600)
    """,
    "big_report": """
        # The shipped report with a block of 32 MiB (of zeros, no results) after its file
        # header: a whole report too big for a pipe's buffer.
        data = open(report, "rb").read()
        head = 8 + int.from_bytes(data[4:8], "little")
        pad = 32 << 20
        header = bytes([5 << 3]) + bytes([0x80 | (pad & 0x7F), 0x80 | (pad >> 7 & 0x7F),
                                          0x80 | (pad >> 14 & 0x7F), pad >> 21])
        with open(out, "wb") as f:
            f.write(data[:head] + len(header).to_bytes(4, "little") + header)
            f.seek(pad, 1)
            f.write(data[head:])
    """,
    "cut_report": """
        # The shipped report cut short at the byte the test wrote to `cut`, as a full /tmp
        # leaves it, and ncu exiting 0.
        with open(os.path.join(os.path.dirname({record!r}), "cut")) as f:
            cut = int(f.read())
        with open(out, "wb") as f:
            f.write(open(report, "rb").read()[:cut])
    """,
    "setsid_child": """
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                                 start_new_session=True)
        with open(os.path.join(os.path.dirname({record!r}), "child-pid"), "w") as f:
            f.write(str(child.pid))
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        time.sleep(600)
    """,
    "double_fork": """
        # A grandchild that outlives its parent: a `sleep` in a session of its own, whose parent
        # exits at once, so that it becomes the helper's child (the subreaper's).
        here = os.path.dirname({record!r})
        if os.fork() == 0:
            sleeper = subprocess.Popen(["sleep", "600"], start_new_session=True)
            with open(os.path.join(here, "sleep-pid"), "w") as f:
                f.write(str(sleeper.pid))
            os._exit(0)
        os.wait()
        print("==PROF== Connected to process 4242 (python3)", flush=True)
        open(os.path.join(here, "running"), "w").close()
        time.sleep(600)
    """,
    "none": """
        print("==WARNING== No kernels were profiled.", flush=True)
    """,
    "not_a_report": """
        with open(out, "wb") as f:
            f.write(b"this is not a report")
    """,
}

FAKE_NCU = """\
#!{python}
import json, os, shutil, signal, stat, subprocess, sys, time
SHARED_TMP = {shared_tmp!r}
argv = sys.argv[1:]
if argv == ["--version"]:
    print("NVIDIA (R) Nsight Compute Command Line Profiler")
    print("Version 2099.1.0.0 (build 1) (fake for tests)")
    sys.exit(0)
with open({record!r}, "a") as f:
    f.write(json.dumps({{"argv": argv, "pid": os.getpid(), "pgid": os.getpgid(0),
                        "cwd": os.getcwd(), "env": dict(os.environ)}}) + "\\n")
if "-o" not in argv:  # --clock-control reset
{reset}
    sys.exit(0)
out = argv[argv.index("-o") + 1] + ".ncu-rep"
report = {report!r}
{body}
"""


"""The installed helper's first line (resources/install-capture.sh writes the same)."""


@dataclass
class Install:
    """A planted install: `helper` with capture.json naming `ncu`, the fake."""

    root: Path
    helper: Path
    ncu: Path
    record: Path
    python: Path

    def runs(self) -> list[dict]:
        """What the fake ncu recorded, one entry per run."""
        if not self.record.exists():
            return []
        return [json.loads(line) for line in self.record.read_text().splitlines()]

    def captures(self) -> list[dict]:
        """The runs that were captures (not `--clock-control reset` or `--version`)."""
        return [run for run in self.runs() if "-o" in run["argv"]]

    def command(self, *args: str) -> list[str]:
        """The helper run by its first line, as pkexec runs it: the venv's python -IS."""
        return [str(self.helper), *args]

    def run(self, *args: str, timeout: float = 60, **kwargs) -> subprocess.CompletedProcess:
        """Run the helper with stdin a pipe held open until it ends, as the client does."""
        read_end, write_end = os.pipe()
        try:
            return subprocess.run(self.command(*args), stdin=read_end, capture_output=True,
                                  timeout=timeout, **kwargs)
        finally:
            os.close(read_end)
            os.close(write_end)


RESETS = {
    "at_once": """
        pass
    """,
    "during_ctrl_c": """
        # The real reset takes its time with the GPU; this one lasts until the terminal has
        # typed RESET_CTRL_C more Ctrl-C (tests/capture/pty_ctrl_c.py counts them in
        # ctrl-c-count), so that they land while it runs, and then says it finished.
        here = os.path.dirname({record!r})
        def typed():
            try:
                return int(open(os.path.join(here, "ctrl-c-count")).read())
            except (OSError, ValueError):
                return 0
        first, give_up = typed(), time.monotonic() + 60
        while typed() < first + RESET_CTRL_C and time.monotonic() < give_up:
            time.sleep(0.005)
        with open(os.path.join(here, "reset-done"), "w") as f:
            f.write(str(typed() - first))
    """,
}
"""What the fake ncu does for `--clock-control reset`, after recording its argv."""
RESET_CTRL_C = 5


def plant(base: Path, behaviour: str = "success", replace: dict[str, str] | None = None,
          config: bool = True, library_path: list[str] | None = None,
          python: str | None = None, reset: str = "at_once") -> Install:
    """An install under `base` (0755 directories, 0644/0755 files, owned by whoever runs the
    tests) with a venv of its own, as the real install has (without pip: the fake ncu never
    runs the kernels), made by `python` (default: this interpreter). `replace` rewrites lines
    of the helper copy, as the install rewrites its shebang."""
    root = base / "libexec"
    tools = base / "tools"
    for d in (root, tools):
        d.mkdir(parents=True)
        d.chmod(0o755)
    if python is None:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(root / "venv")
    else:
        subprocess.run([python, "-I", "-m", "venv", "--without-pip", "--symlinks",
                        str(root / "venv")], check=True)
    record = base / "ncu-runs.jsonl"
    ncu = tools / "ncu"
    body = textwrap.dedent(BEHAVIOURS[behaviour]).replace("{record!r}", repr(str(record)))
    reset_body = textwrap.indent(textwrap.dedent(RESETS[reset]), "    ").replace(
        "{record!r}", repr(str(record))).replace("RESET_CTRL_C", str(RESET_CTRL_C))
    ncu.write_text(FAKE_NCU.format(python=sys.executable, record=str(record), report=str(REPORT),
                                   shared_tmp=str(base / "shared-tmp"), body=body,
                                   reset=reset_body))
    ncu.chmod(0o755)
    modules = bundle.sources()
    for old, new in (replace or {}).items():
        found = [name for name, text in modules.items() if old in text]
        assert found, old
        modules = {name: text.replace(old, new) for name, text in modules.items()}
    helper = root / "ncu-reader-capture"
    bundle.write(helper, str(root / "venv" / "bin" / "python3"), modules)
    helper.chmod(0o755)
    if config:
        conf = root / "capture.json"
        conf.write_text(json.dumps({"ncu": str(ncu), "cuda_home": None,
                                    "library_path": library_path}))
        conf.chmod(0o644)
    os.chmod(base, 0o755)
    return Install(root, helper, ncu, record, root / "venv" / "bin" / "python3")


def events(stderr: bytes) -> list[dict]:
    """The helper's JSON lines."""
    return [json.loads(line) for line in stderr.decode().splitlines() if line.strip()]
