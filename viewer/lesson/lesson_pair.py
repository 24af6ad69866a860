"""The two open kernels in the lesson's roles, with the names the window shows them by.

viewer.lesson.lesson_kernels decides which kernels are the lesson's (the app's matmul_naive and
matmul_tiled, a published reference's naive and tiled) and knows their size and tile. Any other
two kernels are read in the order picked, A as naive and B as tiled, and the views say so: their
size is typed in (the Predict step) or their rows set beside the T4 as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from viewer.analysis.predict import DEFAULT_TILE
from viewer.core.model import Kernel
from viewer.lesson import lesson_kernels

ROLES = lesson_kernels.ROLES


@dataclass(frozen=True)
class LessonPair:
    """The naive and the tiled kernel and their names; `by_name` False: read in the order
    picked."""

    naive: Kernel
    tiled: Kernel
    naive_name: str
    tiled_name: str
    by_name: bool

    def kernel(self, role: str) -> Kernel:
        return self.naive if role == "naive" else self.tiled

    def name(self, role: str) -> str:
        return self.naive_name if role == "naive" else self.tiled_name

    @property
    def dim(self) -> int | None:
        """The matmul's size where the lesson knows it, else None (to be typed in)."""
        dims = {lesson_kernels.lesson_dim(self.naive), lesson_kernels.lesson_dim(self.tiled)}
        return dims.pop() if len(dims) == 1 else None

    @property
    def tile(self) -> int:
        """The tile the lesson knows for these kernels, else the lesson's default."""
        return lesson_kernels.lesson_tile(self.naive) or DEFAULT_TILE

    @property
    def order_note(self) -> str:
        """'' for the lesson's own kernels, else how the pair is read."""
        if self.by_name:
            return ""
        return (f"These are not the lesson's kernels by name, so they are read in the order "
                f"picked: A ({self.naive_name}) as the naive matmul, B ({self.tiled_name}) as "
                "the tiled one; S swaps them.")


def lesson_pair(kernels: Sequence[Kernel], names: Sequence[str]) -> LessonPair | None:
    """The pair in the lesson's roles, or None unless exactly two kernels are open."""
    if len(kernels) != 2 or len(names) != 2:
        return None
    named = dict(zip((id(k) for k in kernels), names, strict=True))
    try:
        naive, tiled = lesson_kernels.find_pair(kernels)
    except lesson_kernels.NotTheLesson:
        return LessonPair(kernels[0], kernels[1], names[0], names[1], by_name=False)
    return LessonPair(naive, tiled, named[id(naive)], named[id(tiled)], by_name=True)
