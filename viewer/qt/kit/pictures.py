"""A reading tab as a picture (PNG or SVG), the whole reading rather than the part that fits."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget


@contextmanager
def whole_page(page: QWidget) -> Iterator[QWidget]:
    """`page` made tall enough, for the moment, to show all of its scrolled answer (an export
    shows the whole reading, not the part that fits the window)."""
    # Settle the layouts still pending (a tab drawn just now, when it was shown) before measuring.
    QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    scroll = page.findChild(QScrollArea)
    old = page.size()
    policy = scroll.verticalScrollBarPolicy() if scroll is not None else None
    if scroll is not None:
        bar = scroll.verticalScrollBar()
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        for _ in range(8):  # the answer's height depends on its width: grow until it fits
            _activate(page)
            grow = max(0, bar.maximum())
            if grow == 0:
                break
            page.resize(page.width(), page.height() + grow)
    try:
        yield page
    finally:
        if scroll is not None and policy is not None:
            scroll.setVerticalScrollBarPolicy(policy)
        if page.size() != old:
            page.resize(old)
            _activate(page)


def save_png(page: QWidget, path: Path) -> None:
    with whole_page(page) as whole:
        if not whole.grab().save(str(path), "PNG"):
            raise OSError(f"could not write {path}")


def save_svg(page: QWidget, path: Path, title: str, subject: str, question: str = "") -> None:
    """Write `page` as SVG titled by its tab's `title` and `subject` (what it shows), described
    by its `question`."""
    with whole_page(page) as whole:
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setResolution(whole.logicalDpiX())
        generator.setSize(whole.size())
        generator.setViewBox(whole.rect())
        generator.setTitle(f"{title.lstrip('0123456789 ')}: {subject}")
        generator.setDescription(question)
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {path}")
        try:
            whole.render(painter, QPoint())
        finally:
            painter.end()


def _activate(page: QWidget) -> None:
    layout = page.layout()
    assert layout is not None, "a reading tab lays out its page"
    layout.activate()

