"""Labels made in one style take the next one's type and keep their own role and weight."""

from __future__ import annotations

from viewer.qt.kit.style import Style
from viewer.qt.kit.styled_labels import StyledLabels


def test_each_label_is_painted_again_in_its_own_role(qtbot) -> None:
    labels, desk, projector = StyledLabels(), Style(), Style(projector=True)
    small = labels.make(desk, "a", "small", color="secondary")
    heading = labels.make(desk, "b", "heading", bold=True, name="b", wrap=True)
    assert (heading.objectName(), heading.wordWrap(), small.wordWrap()) == ("b", True, False)
    labels.paint(projector)
    assert small.font().pointSizeF() == projector.points("small")
    assert heading.font().pointSizeF() == projector.points("heading")
    assert heading.font().bold() and not small.font().bold()
