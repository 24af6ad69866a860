"""Every report and export the tests hold (tests/data/corpus/ and the shipped profiles/, and the
N = 1024 pair made from them), read once per process, with what the window's views read beyond
the first read of a .ncu-rep (the roofline's and the stalls' metrics). A file no reader takes is
left out; so are files that hold no report (notes, capture records, source pages)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from viewer.analysis import roofline, stalls
from viewer.core.model import Kernel, Report, ReportError
from viewer.lesson import t4_reference
from viewer.readers import read_metrics, read_report

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "profiles"
CORPUS = ROOT / "tests" / "data" / "corpus"
NOT_REPORTS = (".json", ".py", ".session.txt", ".source.csv", ".source-cuda-sass.csv")
# A report of more kernels than this is read pairwise through one launch of each kernel name
# and launch shape (the slow pass sets every launch against those).
FEW = 12
VIEW_METRICS = roofline.ROOFLINE_METRICS | stalls.STALL_METRICS


def paths() -> list[Path]:
    """Every file of the corpus and of profiles/ that may be a report."""
    found = [*sorted(CORPUS.rglob("*")), *sorted(PROFILES.iterdir())]
    return [p for p in found if p.is_file() and not p.name.endswith(NOT_REPORTS)
            and (p.suffix != ".toml" or p.name == "t4-reference.toml")]


@functools.cache
def report(path: Path) -> Report | None:
    """The report at `path` with the views' metrics read, or None where no reader takes it."""
    try:
        found = read_report(path)
        found.add_metrics(read_metrics(found, [k.index for k in found.kernels], VIEW_METRICS),
                          VIEW_METRICS)
    except ReportError:
        return None
    return found


@functools.cache
def t4() -> tuple[Kernel, Kernel]:
    """The lesson's T4 table's naive and tiled kernels."""
    naive, tiled = t4_reference.reference_report().kernels
    return naive, tiled


@dataclass(frozen=True)
class Pick:
    """A kernel with the report it is in."""

    kernel: Kernel
    report: Report

    @property
    def id(self) -> str:
        return f"{Path(self.report.source).name}#{self.kernel.index}"


@dataclass(frozen=True)
class Corpus:
    """The reports read, in order."""

    reports: tuple[Report, ...]

    def picks(self) -> list[Pick]:
        """Every kernel of every report."""
        return [Pick(k, r) for r in self.reports for k in r.kernels]

    def shipped_naive(self) -> Pick:
        return next(p for p in self.picks()
                    if Path(p.report.source) == PROFILES / "naive.ncu-rep")

    def pairs(self) -> Iterator[tuple[Pick, Pick]]:
        """Each report's kernels pairwise (a report of many, through `shapes`), then the shipped
        naive against every other kernel."""
        for found in self.reports:
            for a, b in itertools.combinations(shapes(found), 2):
                yield Pick(a, found), Pick(b, found)
        naive = self.shipped_naive()
        yield from ((naive, p) for p in self.picks() if p.kernel is not naive.kernel)

    def every_launch(self) -> Iterator[tuple[Pick, Pick]]:
        """In the reports of many kernels, every launch against each of `shapes` (slow)."""
        for found in self.reports:
            if len(found.kernels) > FEW:
                for a, b in itertools.product(found.kernels, shapes(found)):
                    if a is not b:
                        yield Pick(a, found), Pick(b, found)


def shapes(found: Report) -> Sequence[Kernel]:
    """A report's kernels; of a report of many, the first launch of each name and launch."""
    if len(found.kernels) <= FEW:
        return found.kernels
    first: dict[object, Kernel] = {}
    for kernel in found.kernels:
        first.setdefault((kernel.name, kernel.grid, kernel.block), kernel)
    return list(first.values())


def load(extra: Iterable[Path] = ()) -> Corpus:
    """The corpus and profiles/ (and `extra` files), every file a reader takes."""
    found = (report(p) for p in [*paths(), *extra])
    return Corpus(tuple(r for r in found if r is not None))
