"""A reading tab as a picture (PNG or SVG), the whole reading rather than the part that fits, with
what the screen says above the tabs (which kernel is A, which B, and the warnings) drawn above it:
a picture shown on a slide carries what the window said about its numbers."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QRect, QSize, Qt
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QImage,
    QPainter,
    QPalette,
    QTextDocument,
)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget


@dataclass(frozen=True)
class Header:
    """Rich text drawn above a tab's picture, in `font` and `color` on `background`, `padding`
    pixels around it."""

    html: str
    font: QFont
    color: str
    background: str
    padding: int = 8


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


class _Picture:
    """The whole page with `header` above it, as one picture to paint."""

    def __init__(self, page: QWidget, header: Header | None) -> None:
        self.page = page
        self.header = header
        self.document = QTextDocument()
        self.top = 0
        if header is not None and header.html:
            self.document.setDocumentMargin(0)
            self.document.setDefaultFont(header.font)
            self.document.setHtml(header.html)
            self.document.setTextWidth(max(page.width() - 2 * header.padding, 1))
            self.top = math.ceil(self.document.size().height()) + 2 * header.padding

    @property
    def size(self) -> QSize:
        return QSize(self.page.width(), self.page.height() + self.top)

    def paint(self, painter: QPainter) -> None:
        """The header (if any), then the page under it."""
        header = self.header
        if header is not None and self.top:
            painter.fillRect(QRect(0, 0, self.page.width(), self.top), QColor(header.background))
            painter.save()
            painter.translate(header.padding, header.padding)
            context = QAbstractTextDocumentLayout.PaintContext()
            context.palette.setColor(QPalette.ColorRole.Text, QColor(header.color))
            self.document.documentLayout().draw(painter, context)
            painter.restore()
        self.page.render(painter, QPoint(0, self.top))


def save_png(page: QWidget, path: Path, header: Header | None = None) -> None:
    """Write `page` as PNG, `header` drawn above it."""
    with whole_page(page) as whole:
        picture = _Picture(whole, header)
        ratio = whole.devicePixelRatioF()
        size = picture.size
        image = QImage(round(size.width() * ratio), round(size.height() * ratio),
                       QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        try:
            picture.paint(painter)
        finally:
            painter.end()
        if not image.save(str(path), "PNG"):  # type: ignore[call-overload]  # the stub wants bytes, PySide6 a str
            raise OSError(f"could not write {path}")


def save_svg(page: QWidget, path: Path, title: str, subject: str, question: str = "",
             header: Header | None = None) -> None:
    """Write `page` as SVG titled by its tab's `title` and `subject` (what it shows), described
    by its `question`, `header` drawn above it."""
    with whole_page(page) as whole:
        picture = _Picture(whole, header)
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setResolution(whole.logicalDpiX())
        generator.setSize(picture.size)
        generator.setViewBox(QRect(QPoint(), picture.size))
        generator.setTitle(f"{title.lstrip('0123456789 ')}: {subject}")
        generator.setDescription(question)
        painter = QPainter()
        if not painter.begin(generator):
            raise OSError(f"could not write {path}")
        try:
            picture.paint(painter)
        finally:
            painter.end()


def _activate(page: QWidget) -> None:
    layout = page.layout()
    assert layout is not None, "a reading tab lays out its page"
    layout.activate()
