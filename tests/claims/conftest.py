"""The corpus and everything the app says of it, made once for the claims' tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.claims import corpus, sentences
from tests.claims.sentences import Said
from tests.pair_1024 import write_pair_1024


@pytest.fixture(scope="session")
def pair_1024_files(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return write_pair_1024(tmp_path_factory.mktemp("claims-n1024"))


@pytest.fixture(scope="session")
def reports(pair_1024_files: list[Path]) -> corpus.Corpus:
    """Every report of the corpus and profiles/, and the N = 1024 pair."""
    return corpus.load(pair_1024_files)


@pytest.fixture(scope="session")
def kernel_said(reports: corpus.Corpus) -> list[Said]:
    """What the app says of each kernel: the window's words and `summary`'s printout."""
    found = [s for pick in reports.picks() for s in sentences.kernel_sentences(pick)]
    return found + [s for report in reports.reports for s in sentences.summary_blocks(report)]


@pytest.fixture(scope="session")
def pair_said(reports: corpus.Corpus) -> list[Said]:
    """What the comparisons say of each pair of kernels."""
    return [s for a, b in reports.pairs() for s in sentences.pair_sentences(a, b)]


@pytest.fixture(scope="session")
def lesson_pages(reports: corpus.Corpus) -> list[tuple[tuple[Path, ...], str]]:
    """`python -m viewer lesson` for each naive and tiled pair of one form, and the T4 table."""
    paths = [Path(r.source) for r in reports.reports]
    return [(files, sentences.lesson_page(files)) for files in sentences.lesson_pairs(paths)]
