"""Every test runs headless, without a GPU and away from the user's own configuration, however
pytest is started."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

import pytest

# Set before any test module imports Qt or numba.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

H200 = Path(__file__).parent / "data" / "corpus" / "h200"

# The user's own XDG folders (the specification's defaults where a variable is unset).
XDG_DEFAULTS = {"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share",
                "XDG_CACHE_HOME": ".cache", "XDG_STATE_HOME": ".local/state"}
USER_DIRS = {name: Path(os.environ.get(name) or Path.home() / default)
             for name, default in XDG_DEFAULTS.items()}
# Qt's settings (QSettings, the file dialog's QtProject.conf), the app's own, the captures and
# every cache go to a folder of this run's own instead, set before anything reads them (Qt caches
# its settings paths on first use) and removed when the run ends. HOME stays: Qt finds these
# folders through the XDG variables alone, and tests that need a home of their own set one.
RUN_DIRS = Path(tempfile.mkdtemp(prefix="ncu-reader-tests-"))
for _name in XDG_DEFAULTS:
    _folder = RUN_DIRS / _name.removeprefix("XDG_").removesuffix("_HOME").lower()
    _folder.mkdir(mode=0o700)
    os.environ[_name] = str(_folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(RUN_DIRS, ignore_errors=True)


# `make test-fast`: the tests that took under FAST_S in the run durations.json records (setup,
# call and teardown; a test it does not know counts as fast), none marked slow, none of a module
# whose tests took MODULE_S or more together: a module's shared fixtures (a window, the
# corpus's sentences) are paid by whichever of its tests runs first, a slow one in a whole run,
# a quick one in the fast loop. `make test-durations` records a whole run again.
DURATIONS = Path(__file__).with_name("durations.json")
FAST_S = 0.25
MODULE_S = 6.0
_TAKEN: dict[str, float] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--fast", action="store_true",
                     help=f"only tests that took under {FAST_S} s in tests/durations.json's run, "
                          f"of modules under {MODULE_S:g} s, and not marked slow")
    parser.addoption("--record-durations", metavar="PATH",
                     help="write each test's seconds (setup, call, teardown) to PATH as JSON")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--fast"):
        return
    recorded = json.loads(DURATIONS.read_text(encoding="utf-8"))
    modules: dict[str, float] = {}
    for nodeid, seconds in recorded.items():
        module = nodeid.split("::", 1)[0]
        modules[module] = modules.get(module, 0.0) + seconds
    keep, drop = [], []
    for item in items:
        slow = (item.get_closest_marker("slow") is not None
                or recorded.get(item.nodeid, 0.0) >= FAST_S
                or modules.get(item.nodeid.split("::", 1)[0], 0.0) >= MODULE_S)
        (drop if slow else keep).append(item)
    config.hook.pytest_deselected(items=drop)
    items[:] = keep


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _TAKEN[report.nodeid] = _TAKEN.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session: pytest.Session) -> None:
    path = session.config.getoption("--record-durations")
    if path and not hasattr(session.config, "workerinput"):  # pytest-xdist: the controller writes
        taken = {k: round(v, 3) for k, v in sorted(_TAKEN.items())}
        Path(path).write_text(json.dumps(taken, indent=0) + "\n", encoding="utf-8")


@pytest.fixture(scope="session")
def user_dirs() -> dict[str, Path]:
    """The user's own XDG folders, which no test may write to."""
    return dict(USER_DIRS)


@pytest.fixture
def real_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every report the test reads is read from its file (NCU_READER_NO_CACHE=1, which child
    processes inherit), never answered by the cache of what was read: for the tests of the read
    itself (its progress, a cancel in the middle, the reader's child, what a read does), which a
    file read earlier in the run would otherwise pass without reading it."""
    monkeypatch.setenv("NCU_READER_NO_CACHE", "1")


@pytest.fixture(scope="session")
def naive():
    """The lesson's naive matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-naive.ncu-rep").kernels[0]


@pytest.fixture(scope="session")
def tiled():
    """The lesson's tiled matmul as captured on an H200 (the corpus .ncu-rep)."""
    from viewer.readers import read_report

    return read_report(H200 / "numba-tiled.ncu-rep").kernels[0]


@pytest.fixture(scope="session")
def source_of():
    """read_source(path), each file read once for the whole run: the source reader's tests and
    the Source view's read the same reports and pages (a .ncu-rep's read is a child process).
    A new list each call, of functions shared between the tests, which none may change."""
    from viewer.readers.source import read_source

    read: dict[Path, list] = {}

    def source_of(path: Path) -> list:
        if path not in read:
            read[path] = read_source(path)
        return list(read[path])

    return source_of


@pytest.fixture
def shown_window(qtbot, tmp_path):
    """A MainWindow at 1280x800, shown, its settings in tmp_path, remembering no recent file;
    its loading worker shut down after the test."""
    from PySide6.QtCore import QSettings

    from viewer.qt.shell.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings=settings, record_recent=False)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    win.activateWindow()
    yield win
    win.worker.shutdown(30_000)


def open_shipped(window, qtbot) -> None:
    """Open the shipped pair in `window` and wait until it is shown."""
    from viewer.core import shipped

    with qtbot.waitSignal(window.loaded, timeout=60_000):
        window.open_paths(shipped.comparison())
