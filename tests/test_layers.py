"""The package's layers: no import cycle anywhere, counting imports inside functions (they hide cycles
that only bite at run time), and the leaves that must stay leaves. Read from the source with ast."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import compaction_tree

PACKAGE = Path(compaction_tree.__file__).parent


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _runtime_imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that runs, at any depth; `if TYPE_CHECKING:` blocks never run."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for orelse in node.orelse:
                yield from _runtime_imports(orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _runtime_imports(node)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    """The package's modules an import statement loads (a name imported from a package may be a module)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names if alias.name.startswith(PACKAGE.name))
        return
    if node.level == 0:
        base = node.module or ""
        if not base.startswith(PACKAGE.name):
            return
    else:
        package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
        base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
    for alias in node.names:
        yield f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {t for node in _runtime_imports(tree) for t in _targets(module, node)} - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_every_import_of_the_package_names_a_module_that_exists() -> None:
    graph = import_graph()
    assert {target for targets in graph.values() for target in targets} <= set(MODULES)


def test_the_package_has_no_import_cycle() -> None:
    assert cycles(import_graph()) == []


def test_the_cycle_finder_finds_a_cycle_hidden_in_a_function() -> None:
    source = "from .b import x\n"
    other = "def f():\n    from .a import y\n"
    graph = {"p.a": set(), "p.b": set()}
    for module, text in (("p.a", source), ("p.b", other)):
        for node in _runtime_imports(ast.parse(text)):
            graph[module].add(f"p.{node.module}")  # type: ignore[union-attr]
    assert cycles(graph) == [["p.a", "p.b"]]


def test_the_leaves_stay_leaves() -> None:
    """summarizers.py is what the backends share, and facts/ is below ROOT.md and the index."""
    graph = import_graph()
    package = PACKAGE.name
    assert not graph[f"{package}.summarizers"] & {f"{package}.{m}" for m in ("llm", "extractive", "backends")}
    for module, targets in graph.items():
        if module.startswith(f"{package}.facts"):
            assert not targets & {f"{package}.root", f"{package}.index"}, module
    assert f"{package}.facts.store" not in graph[f"{package}.root"]


def test_the_backend_table_names_the_backends_memtree_yaml_accepts() -> None:
    from compaction_tree.backends import BACKENDS
    from compaction_tree.config import BACKENDS as ACCEPTED

    assert set(BACKENDS) == set(ACCEPTED)
