"""The games are pure: standard library and ``arena.games`` only, and no I/O.

Every game under ``arena.games`` must run anywhere a bot author copies it (no trio, grpc,
protobuf or database), and must never touch files, sockets, clocks or the process. The scan reads
the source with :mod:`ast`, so it also covers code paths no test executes.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

GAMES_DIR = Path(__file__).resolve().parent.parent / "arena" / "games"
MODULES = sorted(GAMES_DIR.rglob("*.py"))
IDS = [str(p.relative_to(GAMES_DIR)) for p in MODULES]

FORBIDDEN_MODULES = {
    # third-party layers of the arena
    "trio", "grpc", "google", "sqlmodel", "sqlalchemy", "alembic", "typer", "rich", "psycopg",
    # standard library I/O, concurrency, clocks and process control
    "asyncio", "socket", "socketserver", "ssl", "selectors", "select", "threading",
    "multiprocessing", "concurrent", "subprocess", "os", "sys", "io", "pathlib", "shutil",
    "tempfile", "glob", "fileinput", "sqlite3", "dbm", "shelve", "pickle", "marshal", "urllib",
    "http", "ftplib", "smtplib", "email", "logging", "time", "datetime", "random", "secrets",
    "signal", "ctypes", "importlib", "builtins", "platform", "uuid", "warnings",
    # the rest of the arena
    "arena.server", "arena.transport", "arena.storage", "clients", "tournaments",
}

FORBIDDEN_CALLS = {
    "open", "print", "input", "exec", "eval", "compile", "__import__", "breakpoint", "exit",
    "quit",
}


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(level, absolute-or-relative module name) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((0, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.level, node.module or ""))
    return found


def test_the_scan_sees_every_module() -> None:
    names = set(IDS)
    assert {
        f"french_tarot/{name}.py" for name in (
            "__init__", "actions", "cards", "deal", "game", "observation", "record", "scoring",
        )
    } <= names
    assert "__init__.py" in names


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_imports_are_stdlib_or_own(path: Path) -> None:
    for level, name in imports_of(path):
        depth = len(path.relative_to(GAMES_DIR).parts) - 1
        if level:
            assert level <= depth + 1, f"{path.name}: relative import reaches outside arena.games"
            continue
        top = name.split(".")[0]
        if name == "arena.games" or name.startswith("arena.games."):
            continue
        assert top in sys.stdlib_module_names, f"{path.name} imports {name}, not standard library"
        for forbidden in FORBIDDEN_MODULES:
            assert name != forbidden and not name.startswith(forbidden + "."), (
                f"{path.name} imports {name}: a game does no I/O"
            )


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_no_io_calls(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else None
            assert name not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {name}()"
            if isinstance(func, ast.Attribute):
                assert func.attr not in {"read_text", "write_text", "read_bytes", "write_bytes"}, (
                    f"{path.name}:{node.lineno} does file I/O"
                )
        if isinstance(node, ast.Name):
            assert node.id not in {"__builtins__", "__import__"}, f"{path.name}:{node.lineno}"


def test_the_scan_catches_what_it_should(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom trio import sleep\nfrom .cards import Card\n", "utf-8")
    assert imports_of(bad) == [(0, "os"), (0, "trio"), (1, "cards")]


def test_importing_the_games_loads_nothing_forbidden() -> None:
    """A fresh interpreter that imports every game has no transport or database module."""
    packages = sorted(p.parent.name for p in GAMES_DIR.glob("*/__init__.py"))
    code = (
        f"import sys, {', '.join('arena.games.' + name for name in packages)}\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=GAMES_DIR.parent.parent,
    ).stdout.split()
    loaded = {name.split(".")[0] for name in out}
    third_party = {"trio", "grpc", "google", "sqlmodel", "sqlalchemy", "alembic", "psycopg"}
    assert not loaded & third_party
    assert "asyncio" not in loaded and "socket" not in loaded
