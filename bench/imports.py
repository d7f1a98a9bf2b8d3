"""The figures of toolexpect's import graph, read from the source with ``ast`` (nothing is imported).

``python bench/imports.py [--src DIR]`` prints, for the package in DIR (default: this
repository's ``src/toolexpect``):

* the modules and packages at its root (``__init__.py`` and ``__main__.py`` aside; a folder
  counts as a package when it holds an ``__init__.py``);
* the import circles among its modules, each listed (a circle is a strongly connected set of
  modules, or a module importing itself), and how many of them are left when the imports under
  ``if TYPE_CHECKING:`` are left out;
* the import edges between top-level modules and packages (a subpackage's modules count as
  their top-level package; imports inside one package are not counted), and the circles among
  those;
* the levels of imports: the longest chain of top-level modules and packages each importing
  the next (a top-level circle counts as one step).

Which imports count: every ``import`` and ``from ... import`` of a ``toolexpect`` module at
any depth (module level, in a function, under ``try``), including those under
``if TYPE_CHECKING:``. A function-level import counts because it still needs its module
whenever the function runs, and a typing-only one because the two modules still depend on each
other's names (mypy reads both): deferring an import, or moving it under ``TYPE_CHECKING``,
hides a circle, it does not remove it. ``from toolexpect.a import b`` is an import of
``toolexpect.a.b`` when ``b`` is a module of the package, of ``toolexpect.a`` otherwise.
Importing ``toolexpect.a.b`` runs the ``__init__.py`` of its parents too; those implicit
imports are not counted (a package's ``__init__.py`` importing its own modules would otherwise
be a circle with each of them). The package face (``toolexpect/__init__.py``) imports its names
on first use with ``importlib``, which this reading does not see; its ``TYPE_CHECKING`` imports
of the same names are seen, so a module that imports the face closes a circle.

Compare two trees: ``git archive main src | tar -x -C /tmp/old`` then
``python bench/imports.py --src /tmp/old/src/toolexpect``.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "toolexpect"
SRC = Path(__file__).resolve().parent.parent / "src" / PACKAGE


@dataclass(frozen=True)
class Figures:
    """The figures of one tree of the package."""

    root: list[str]
    circles: list[list[str]]
    runtime_circles: list[list[str]]
    edges: set[tuple[str, str]]
    top_circles: list[list[str]]
    levels: int


def modules(src: Path = SRC) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in sorted(src.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = [PACKAGE, *path.relative_to(src).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(node: ast.AST, typing: bool) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements under ``node``; under ``if TYPE_CHECKING:`` only when ``typing``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test) and not typing:
            for other in child.orelse:
                yield from _statements(ast.Module(body=[other], type_ignores=[]), typing)
            continue
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child
        yield from _statements(child, typing)


def _absolute(statement: ast.ImportFrom, name: str, is_package: bool) -> str:
    if not statement.level:
        return statement.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[: len(base) - statement.level + 1]
    return ".".join([*base, *([statement.module] if statement.module else [])])


def imports_of(name: str, path: Path, known: set[str], typing: bool = True) -> set[str]:
    """The modules of the package that module ``name`` (read from ``path``) imports; with
    ``typing``, those imported under ``if TYPE_CHECKING:`` as well."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for statement in _statements(tree, typing):
        if isinstance(statement, ast.Import):
            targets = [alias.name for alias in statement.names]
        else:
            module = _absolute(statement, name, is_package)
            subs = [f"{module}.{alias.name}" for alias in statement.names]
            targets = [sub if sub in known else module for sub in subs]
        for target in targets:
            while target and target not in known:  # ``import toolexpect.a.b`` of a known module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph(src: Path = SRC, typing: bool = True) -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports (see module)."""
    found = modules(src)
    known = set(found)
    return {name: imports_of(name, path, known, typing) for name, path in found.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one node (Tarjan), each sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1 or node in edges.get(node, ()):
                found.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges) + 100))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def top(name: str) -> str:
    """The top-level module or package a module belongs to (the face for ``toolexpect``)."""
    parts = name.split(".")
    return ".".join(parts[:2])


def top_edges(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports between distinct top-level modules and packages (the face left out)."""
    return {
        (top(source), top(target))
        for source, targets in edges.items()
        for target in targets
        if top(source) != top(target) and PACKAGE not in (source, target)
    }


def levels(pairs: set[tuple[str, str]], nodes: set[str]) -> int:
    """The most nodes on one chain of imports, each circle counted as one node."""
    edges: dict[str, set[str]] = {node: set() for node in nodes}
    for source, target in pairs:
        edges[source].add(target)
    group_of = {node: node for node in nodes}
    for group in circles(edges):
        for member in group:
            group_of[member] = group[0]
    condensed: dict[str, set[str]] = {group_of[node]: set() for node in nodes}
    for source, target in pairs:
        if group_of[source] != group_of[target]:
            condensed[group_of[source]].add(group_of[target])
    depth: dict[str, int] = {}

    def height(node: str) -> int:
        if node not in depth:
            depth[node] = 1 + max((height(t) for t in condensed[node]), default=0)
        return depth[node]

    return max((height(node) for node in condensed), default=0)


def figures(src: Path = SRC) -> Figures:
    """The figures of the package in ``src``."""
    edges = graph(src)
    root = sorted(
        p.stem if p.is_file() else p.name + "/"
        for p in src.iterdir()
        if (p.suffix == ".py" and not p.name.startswith("__")) or (p / "__init__.py").is_file()
    )
    tops = {top(name) for name in edges if name != PACKAGE}
    pairs = top_edges(edges)
    unit_edges = {node: {t for s, t in pairs if s == node} for node in tops}
    runtime = circles(graph(src, typing=False))
    return Figures(root, circles(edges), runtime, pairs, circles(unit_edges), levels(pairs, tops))


def main(argv: list[str] | None = None) -> int:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=SRC, help="the package folder (src/toolexpect)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the top-level edges")
    args = parser.parse_args(argv)
    found = figures(args.src)
    modules_at_root = sum(not name.endswith("/") for name in found.root)
    print(f"{args.src}")
    print(
        f"at the root: {len(found.root)} ({modules_at_root} modules, "
        f"{len(found.root) - modules_at_root} packages)"
    )
    print(
        f"import circles among modules: {len(found.circles)} "
        f"({len(found.runtime_circles)} without the imports under TYPE_CHECKING)"
    )
    for circle in found.circles:
        print(f"  {' <-> '.join(c.removeprefix(PACKAGE + '.') for c in circle)}")
    print(f"import edges between top-level modules and packages: {len(found.edges)}")
    print(f"circles among top-level modules and packages: {len(found.top_circles)}")
    for circle in found.top_circles:
        print(f"  {' <-> '.join(c.removeprefix(PACKAGE + '.') for c in circle)}")
    print(f"levels of imports: {found.levels}")
    if args.verbose:
        for source, target in sorted(found.edges):
            print(f"  {source} -> {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
