"""The window's loading job reads through the cache of what was read, as the terminal does: a
report opened again unchanged is answered from it, and --no-cache's variable reads it again."""

from __future__ import annotations

import shutil
from pathlib import Path

from viewer.core.jobs import Job
from viewer.qt.shell.loading import read_reports
from viewer.readers import read_cache

ROOT = Path(__file__).resolve().parents[3]
KEPT = "(kept from an earlier read)"


def said(path: Path) -> list[str]:
    """What the loading job says while it reads `path`."""
    messages: list[str] = []
    loaded = read_reports([path], Job(lambda _f, m: messages.append(m)))
    assert [k.name for k in loaded.reports[0].kernels] == ["matmul_naive"]
    return messages


def test_the_window_opens_a_report_again_from_the_cache(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv(read_cache.NO_CACHE, raising=False)
    path = tmp_path / "naive.details.csv"
    shutil.copyfile(ROOT / "profiles" / "naive.details.csv", path)
    assert not any(KEPT in m for m in said(path))
    assert any(KEPT in m for m in said(path))
    monkeypatch.setenv(read_cache.NO_CACHE, "1")
    assert not any(KEPT in m for m in said(path))
