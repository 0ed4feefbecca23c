"""The arena's layers import one way: games <- table runner <- transport / storage.

The transport and storage are siblings: the gRPC server checks tokens through the small
:class:`~arena.transport.authenticator.Authenticator` interface, which the storage side
implements without knowing it, and whoever builds the server wires the two. The scan reads the
source with :mod:`ast` (relative imports resolved), so it also covers code paths no test runs;
a fresh interpreter then checks what importing the transport really loads.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ARENA = Path(__file__).resolve().parent.parent.parent / "arena"

FORBIDDEN: dict[str, tuple[str, ...]] = {
    "transport": ("arena.storage", "tournaments", "clients", "sqlalchemy", "sqlmodel",
                  "alembic", "psycopg"),
    "storage": ("arena.transport", "tournaments", "clients", "grpc", "google", "trio"),
    "table": ("arena.transport", "arena.storage", "tournaments", "clients", "grpc", "google",
              "sqlalchemy", "sqlmodel"),
}
MODULES = [path for layer in FORBIDDEN for path in sorted((ARENA / layer).rglob("*.py"))]
IDS = [str(path.relative_to(ARENA)) for path in MODULES]


def module_name(path: Path, root: Path = ARENA) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path, root: Path = ARENA) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file, relative ones resolved."""
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            found.append((node.lineno, module))
            # ``from . import storage`` names a module in the imported names
            found.extend((node.lineno, f"{module}.{alias.name}") for alias in node.names)
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_the_scan_sees_every_layer() -> None:
    names = set(IDS)
    assert {"transport/server.py", "transport/services.py", "transport/convert.py",
            "transport/authenticator.py", "storage/bots.py", "table/runner.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_each_layer_imports_only_what_is_below_it(path: Path) -> None:
    layer = path.relative_to(ARENA).parts[0]
    for line, name in imported_names(path):
        for forbidden in FORBIDDEN[layer]:
            assert not within(name, forbidden), (
                f"arena/{path.relative_to(ARENA)}:{line} imports {name}: arena.{layer} must not "
                f"depend on {forbidden}"
            )


def test_the_scan_resolves_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "arena" / "transport"
    package.mkdir(parents=True)
    bad = package / "bad.py"
    bad.write_text("from ..storage.bots import BotRegistry\nfrom .. import storage\n"
                   "import arena.storage.db\nfrom .convert import Hello\n", "utf-8")
    names = [name for _, name in imported_names(bad, tmp_path / "arena")]
    assert names == ["arena.storage.bots", "arena.storage.bots.BotRegistry", "arena",
                     "arena.storage", "arena.storage.db", "arena.transport.convert",
                     "arena.transport.convert.Hello"]


def test_importing_the_transport_loads_no_storage() -> None:
    """A fresh interpreter that imports every transport module has no database module."""
    modules = sorted(module_name(p) for p in (ARENA / "transport").glob("*.py"))
    code = f"import sys, {', '.join(modules)}\nprint('\\n'.join(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True,
        cwd=ARENA.parent,
    ).stdout.split()
    assert "arena.transport.server" in out
    loaded = [name for name in out
              if within(name, "arena.storage") or name.split(".")[0] in
              {"sqlalchemy", "sqlmodel", "alembic", "psycopg", "tournaments", "clients"}]
    assert loaded == []
