"""Tournament storage has one home: :mod:`tournaments.store` and :mod:`tournaments.storage`
write every query on the tournament tables; the rest of ``tournaments`` asks them by name.
The scan reads the source with :mod:`ast`, so it also covers code paths no test runs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "tournaments"
HOME = {ROOT / "store.py", *(ROOT / "storage").rglob("*.py")}
MODULES = sorted(p for p in ROOT.rglob("*.py") if p not in HOME)
ALLOWED = {"sqlalchemy.engine", "sqlalchemy.exc"}
"""What a module outside the home may take from the database layer: the engine it hands to
the store (and a URL's parsing), and the errors it reports."""


def database_imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        found += [(node.lineno, name) for name in names
                  if name.split(".")[0] in ("sqlmodel", "sqlalchemy") and name not in ALLOWED]
    return found


@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(ROOT)) for p in MODULES])
def test_no_query_is_written_outside_the_storage_home(path: Path) -> None:
    assert database_imports(path) == []


def test_the_scan_sees_a_query_module() -> None:
    assert database_imports(ROOT / "storage" / "pages.py")
    assert any(p.name == "views.py" for p in MODULES)
