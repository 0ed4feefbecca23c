"""No import cycles between the project's modules: every module's imports, wherever they are
written (at module level, in ``TYPE_CHECKING`` blocks and inside functions alike: a lazy import
is still a dependency), form a graph without a loop, so the layers of docs/architecture.md can
be read, and loaded, bottom up."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("arena", "clients", "tournaments", "bench")


def modules() -> dict[str, Path]:
    found = {}
    for top in PACKAGES:
        for path in (ROOT / top).rglob("*.py"):
            if "proto_gen" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules ``name`` imports, anywhere in its text."""
    package = path.name == "__init__.py"
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".") if package else name.split(".")[:-1]
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            out.add(base)
            out.update(f"{base}.{alias.name}" for alias in node.names)
    return {m for m in out if m in known and m != name}


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target):], target])
            elif target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return cycles


def test_the_module_graph_has_no_cycle() -> None:
    found = modules()
    graph = {name: imports_of(name, path, set(found)) for name, path in found.items()}
    assert len(graph) > 100
    cycles = cycles_of(graph)
    assert not cycles, "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_the_check_sees_a_cycle(tmp_path: Path) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("from b import x\n")
    b.write_text("def f():\n    import a\n")
    known = {"a", "b"}
    graph = {"a": imports_of("a", a, known), "b": imports_of("b", b, known)}
    assert graph == {"a": {"b"}, "b": {"a"}}
    assert cycles_of(graph) == [["a", "b", "a"]]
    assert cycles_of({"a": {"b"}, "b": set()}) == []


def test_the_check_sees_imports_in_type_checking_blocks(tmp_path: Path) -> None:
    a = tmp_path / "a.py"
    a.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from b import x\n")
    assert imports_of("a", a, {"a", "b"}) == {"b"}
