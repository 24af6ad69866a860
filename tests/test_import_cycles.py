"""No import circle among viewer's modules: grimp's graph of `viewer` (imports under TYPE_CHECKING
and inside functions included) has no cycle, but the ones named in AWAITED, each closed by a
module outside the window's shell that still names MainWindow; the test fails when one of them has
gone too, so that the list only shrinks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Set

import grimp

AWAITED: set[tuple[str, ...]] = set()


def import_graph() -> dict[str, set[str]]:
    """Each module of viewer and the modules of viewer it imports itself."""
    graph = grimp.build_graph("viewer", include_external_packages=False)
    return {module: set(graph.find_modules_directly_imported_by(module))
            for module in graph.modules}


def cycles(graph: Mapping[str, Set[str]]) -> Iterator[tuple[str, ...]]:
    """Every elementary cycle, each once, from its least module: (a, b, c) for a -> b -> c -> a."""
    for start in sorted(graph):
        path = [start]
        # depth-first from `start` through modules after it, so each cycle is found from its least
        stack = [iter(sorted(m for m in graph[start] if m >= start))]
        while stack:
            following = next(stack[-1], None)
            if following is None:
                stack.pop()
                path.pop()
            elif following == start:
                yield tuple(path)
            elif following not in path:
                path.append(following)
                stack.append(iter(sorted(m for m in graph[following] if m >= start)))


def test_the_cycle_finder_finds_each_cycle_once() -> None:
    graph = {"a": {"b"}, "b": {"c", "a"}, "c": {"a"}, "d": {"d", "a"}}
    assert sorted(cycles(graph)) == [("a", "b"), ("a", "b", "c"), ("d",)]


def test_no_import_cycle_among_viewer_modules() -> None:
    found = set(cycles(import_graph()))
    new = sorted(found - AWAITED)
    assert not new, "import cycles:\n" + "\n".join(" -> ".join((*c, c[0])) for c in new)
    gone = sorted(AWAITED - found)
    assert not gone, "gone, take them out of AWAITED:\n" + "\n".join(map(" -> ".join, gone))
