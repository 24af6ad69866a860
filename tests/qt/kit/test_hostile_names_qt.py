"""Nothing from a file renders as markup in the window: a kernel named `<b>bold</b><a ...>link
</a><img src='file:///etc/hostname'>...` in a file named `<b>bold<a href='x'>a<img ...>` shows
those characters, in every label, tooltip, table tooltip and message box that shows it, never
bold, a live link or a picture read from the disk (viewer.qt.kit.plain_text)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QAction, Qt, QTextDocument  # QtGui's Qt: with mightBeRichText
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QMessageBox,
    QTabBar,
    QWidget,
)

from tests.hostile_names import (
    IN_FILE_NAME,
    MARKUP,
    hostile_export,
    hostile_named_copy,
    hostile_source_csv,
)
from viewer.core import shipped
from viewer.qt.kit.elided_name import ElidedName
from viewer.qt.kit.plain_text import plain_label, plain_mnemonic, plain_tip, plain_title
from viewer.qt.kit.session_reads import SessionReads
from viewer.readers import read_report

H200 = Path(__file__).resolve().parents[2] / "data" / "corpus" / "h200"
TARGETS = ("http://example.invalid/x", "file:///etc/hostname", "x", "x.png")
"""Where the hostile markup's links and pictures point."""


def seen(text: str, fmt: Qt.TextFormat = Qt.TextFormat.AutoText
         ) -> tuple[str, QTextDocument | None]:
    """What a person sees of `text` shown in format `fmt` (a tooltip's is AutoText): the text
    itself, or for rich text (said, or guessed as Qt guesses) its document's plain text, with
    the document."""
    rich = fmt == Qt.TextFormat.RichText or (fmt == Qt.TextFormat.AutoText
                                             and Qt.mightBeRichText(text))
    if not rich:
        return text, None
    doc = QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText(), doc


def followed(doc: QTextDocument) -> list[str]:
    """The hostile markup's links and pictures that `doc` made live."""
    found = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.isImageFormat():
                found.append(f"picture {fmt.toImageFormat().name()}")
            if fmt.isAnchor() and fmt.anchorHref() in TARGETS:
                found.append(f"link {fmt.anchorHref()}")
            it += 1
        block = block.next()
    return found


def lines(text: str) -> str:
    """`text` as a QTextDocument gives it back: its line breaks one kind, none at the end."""
    return re.sub("[\r\u2028\u2029]", "\n", text).replace("\xa0", " ").rstrip("\n")


def every_text(window) -> list[tuple[str, str, Qt.TextFormat]]:
    """Where, what and in which format the window shows text: labels, tooltips (of widgets,
    tabs, actions and every item view's cells)."""
    auto = Qt.TextFormat.AutoText
    out = [(f"label {label.objectName()}", label.text(), label.textFormat())
           for label in window.findChildren(QLabel)]
    out += [(f"tooltip of {w.objectName() or type(w).__name__}", w.toolTip(), auto)
            for w in [window, *window.findChildren(QWidget)] if w.toolTip()]
    for bar in window.findChildren(QTabBar):
        out += [(f"tab tooltip {i}", bar.tabToolTip(i), auto) for i in range(bar.count())]
    out += [(f"action {a.text()}", a.toolTip(), auto) for a in window.findChildren(QAction)]
    for view in window.findChildren(QAbstractItemView):
        model = view.model()
        if model is None or isinstance(view, QHeaderView):  # a header: its table's model
            continue
        for row in range(model.rowCount()):
            for column in range(model.columnCount()):
                tip = model.index(row, column).data(Qt.ItemDataRole.ToolTipRole)
                if tip:
                    out.append((f"{type(view).__name__} cell {row},{column}", tip, auto))
    return out


def problems_in(texts: list[tuple[str, str, Qt.TextFormat]]) -> tuple[list[str], list[str]]:
    """What rendered the hostile markup (a live link or picture from it, or its bold without
    its tag), and where the markup shows as characters."""
    problems, literal = [], []
    for where, raw, fmt in texts:
        text, doc = seen(raw, fmt)
        if doc is not None:
            problems += [f"{where}: {what}" for what in followed(doc)]
        if "bold" in text and "<b>bold" not in text:
            problems.append(f"{where} shows {text!r}")
        if "<b>bold" in text:
            literal.append(where)
    return problems, literal


def visit_every_tab(window, qtbot) -> None:
    """Each tab shown in turn until what it asked to read has arrived."""
    reads = SessionReads.of_app()
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        qtbot.waitUntil(lambda: not reads.busy, timeout=60_000)
    window.kernel_list.toggle_grouped()
    QApplication.processEvents()


def test_a_hostile_export_shows_its_names_as_text_everywhere(shown_window, qtbot,
                                                             tmp_path) -> None:
    path = hostile_named_copy(tmp_path, hostile_export(tmp_path))
    tiled = shipped.profiles_dir() / "tiled.details.csv"
    with qtbot.waitSignal(shown_window.loaded, timeout=60_000):
        shown_window.open_paths([path, tiled])
    visit_every_tab(shown_window, qtbot)
    kernel = read_report(path).kernels[0]
    assert MARKUP in kernel.display_name and "<b>bold" in path.name

    problems, literal = problems_in(every_text(shown_window))
    assert problems == []
    assert len(literal) >= 10, literal  # the name and the file name, shown: a real test
    names = shown_window.findChildren(ElidedName)  # over the kernels' columns
    assert all(e.textFormat() == Qt.TextFormat.PlainText for e in names)
    whole = [e for e in names if "<b>bold" in seen(e.toolTip())[0]]
    assert whole and all(lines(seen(e.toolTip())[0]) == lines(kernel.display_name)
                         for e in whole)  # whole on hover
    model = shown_window.kernel_list.view.model()
    tip = seen(model.index(0, 1).data(Qt.ItemDataRole.ToolTipRole))[0]
    assert tip.startswith(lines(kernel.display_name))
    status = shown_window.status_text
    assert status.textFormat() == Qt.TextFormat.PlainText and path.name in status.text()
    assert shown_window.windowTitle().startswith(path.name)


def test_the_source_view_shows_a_hostile_name_and_sass_as_text(qtbot, tmp_path) -> None:
    from viewer.qt.kit.style import Style
    from viewer.qt.views.source.source_pane import SourcePane
    from viewer.readers.source import read_source

    page = hostile_source_csv(tmp_path, H200 / "numba-naive-lineinfo.source.csv")
    page.write_text(page.read_text(encoding="utf-8").replace(
        "LDG.E", f"LDG.E{MARKUP}", 1), encoding="utf-8")
    (function,) = read_source(page)
    pane = SourcePane(Style(), 0)
    qtbot.addWidget(pane)
    pane.show_function(function.name, function)
    problems, literal = problems_in(every_text(pane))
    assert problems == [] and len(literal) >= 2, literal
    assert (pane.heading.text(), pane.heading.textFormat()) == (function.name,
                                                                Qt.TextFormat.PlainText)


def test_a_message_box_names_a_hostile_file_as_text(monkeypatch, tmp_path) -> None:
    from viewer.qt.shell import exporting

    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda _parent, _title, text, *_a: (
        asked.append(text), QMessageBox.StandardButton.No)[1])
    target = tmp_path / f"{IN_FILE_NAME}.png"
    assert not exporting.confirm_replace(None, target)
    (text,) = asked
    shown, doc = seen(text)
    assert lines(shown) == lines(f"{target.name} already exists in {tmp_path}.\nReplace it?")
    assert doc is not None and followed(doc) == []


# ------------------------------------------------------------------ the helpers themselves


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))).flatmap(
    lambda text: st.sampled_from([text, "<b>" + text, MARKUP + text, "&lt;" + text])))
def test_a_plain_tip_reads_as_its_text_whatever_it_holds(qapp, text: str) -> None:
    shown, doc = seen(plain_tip(text))
    assert lines(shown) == lines(text)
    assert doc is None or followed(doc) == []


def test_a_plain_label_keeps_its_format_when_its_text_changes(qapp) -> None:
    label = plain_label(MARKUP)
    label.setText(f"again {MARKUP}")
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == f"again {MARKUP}"


@pytest.mark.parametrize(("helper", "text", "shown"), [
    (plain_mnemonic, "a&b.csv", "a&&b.csv"), (plain_title, "x[*].csv - ncu-reader",
                                              "x[*][*].csv - ncu-reader")])
def test_marks_qt_reads_in_menus_and_titles_are_doubled(qapp, helper, text, shown) -> None:
    assert helper(text) == shown


# ------------------------------------------------------------------ every place, by its code

QT = Path(__file__).resolve().parents[3] / "viewer" / "qt"


def _functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]


def _plain(node: ast.expr, function: ast.FunctionDef) -> bool:
    """Whether `node` is text made plain: plain_tip(...), '', either of two such, or a name
    the function sets to such."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "plain_tip"
    if isinstance(node, ast.Constant):
        return node.value == ""
    if isinstance(node, ast.IfExp):
        return _plain(node.body, function) and _plain(node.orelse, function)
    if isinstance(node, ast.Name):
        values = [a.value for a in ast.walk(function) if isinstance(a, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == node.id for t in a.targets)]
        return bool(values) and all(_plain(v, function) for v in values)
    return False


def _is_tooltip_role(test: ast.expr) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == "ToolTipRole" for n in ast.walk(test))


def test_every_tooltip_and_message_box_text_goes_through_plain_tip() -> None:
    unsafe = []
    for path in sorted(QT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in _functions(tree):
            for node in ast.walk(function):
                said = []
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    if node.func.attr in ("setToolTip", "setTabToolTip") and node.args:
                        said = [node.args[-1]]
                    elif node.func.attr in ("question", "warning", "information",
                                            "critical") and len(node.args) >= 3:
                        said = [node.args[2]]
                if isinstance(node, ast.If) and _is_tooltip_role(node.test):
                    said = [r.value for r in ast.walk(node) if isinstance(r, ast.Return)
                            and r.value is not None]
                unsafe += [f"{path.relative_to(QT)}:{n.lineno}" for n in said
                           if not _plain(n, function)]
    assert unsafe == []


def test_every_label_says_its_format() -> None:
    """A QLabel made anywhere but plain_label, or a class made of one, sets its text format
    (Qt.PlainText, or Qt.RichText for markup it builds escaped) in the same function."""
    unsaid = []
    for path in sorted(QT.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        labels = {c.name for c in ast.walk(tree) if isinstance(c, ast.ClassDef)
                  and any(isinstance(b, ast.Name) and b.id == "QLabel" for b in c.bases)}
        for function in _functions(tree):
            made = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                       and n.func.id == "QLabel" for n in ast.walk(function))
            made |= function.name == "__init__" and any(
                function in ast.walk(c) for c in ast.walk(tree)
                if isinstance(c, ast.ClassDef) and c.name in labels)
            said = any(isinstance(n, ast.Attribute) and n.attr == "setTextFormat"
                       for n in ast.walk(function))
            if made and not said:
                unsaid.append(f"{path.relative_to(QT)}:{function.lineno} {function.name}")
    assert unsaid == []
