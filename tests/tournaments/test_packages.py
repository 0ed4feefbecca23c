"""What each package of ``tournaments`` may import, and the gRPC arena behind the runner's
interface.

- ``tournaments`` never depends on ``clients`` (the bot SDK), except the command line, which
  imports the in-process arena (``clients.local``) or a bot's module lazily, inside the command
  that needs it;
- ``tournaments.duplicate`` is the domain: no I/O, no trio, grpc or database;
- of ``tournaments.play``, only :mod:`tournaments.play.remote` knows the gRPC arena.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
import trio

from arena.games.french_tarot import GameState, TableOptions, seeded_deal
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.table import TimeControl
from arena.transport.server import ArenaServer
from tournaments.play.arena import BotAwayError, TableToPlay
from tournaments.play.remote import RemoteArena

PACKAGE = Path(__file__).resolve().parents[2] / "tournaments"
MODULES = sorted(PACKAGE.rglob("*.py"))
IDS = [str(p.relative_to(PACKAGE)) for p in MODULES]


def imports(path: Path) -> list[tuple[str, bool]]:
    """(absolute module, at the module's top level) for each import of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ["tournaments", *path.relative_to(PACKAGE).parent.parts]
    top_level = {id(node) for node in tree.body}
    typing_only = {id(child) for node in tree.body
                   if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                   for child in ast.walk(node)}  # imports nothing at run time
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.extend((alias.name, id(node) in top_level) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            name = ".".join([*base, node.module] if node.module else base)
            found.append((name, id(node) in top_level))
    return found


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


@pytest.mark.parametrize("path", MODULES, ids=IDS)
def test_tournaments_import_the_bot_sdk_only_lazily_from_the_command_line(path: Path) -> None:
    for name, top_level in imports(path):
        if not under(name, "clients"):
            continue
        assert path.parent.name == "cli", f"{path.name} imports {name}"
        assert not top_level, f"{path.name} imports {name} at load time, not in its command"


@pytest.mark.parametrize("path", sorted((PACKAGE / "duplicate").glob("*.py")),
                         ids=lambda p: p.name)
def test_the_duplicate_domain_does_no_io(path: Path) -> None:
    for name, _ in imports(path):
        for layer in ("trio", "grpc", "sqlalchemy", "sqlmodel", "rich", "typer", "clients",
                      "arena.transport", "arena.storage", "tournaments.play",
                      "tournaments.store", "tournaments.storage", "tournaments.cli",
                      "tournaments.web"):
            assert not under(name, layer), f"{path.name} imports {name}"


@pytest.mark.parametrize("path", sorted((PACKAGE / "play").glob("*.py")), ids=lambda p: p.name)
def test_only_the_remote_arena_knows_the_grpc_arena(path: Path) -> None:
    for name, _ in imports(path):
        if under(name, "arena.transport"):
            assert path.name in ("remote.py", "live.py"), f"{path.name} imports {name}"
        assert not under(name, "tournaments.cli"), f"{path.name} imports {name}"


def test_the_scan_sees_lazy_imports() -> None:
    assert ("clients.local", False) in imports(PACKAGE / "cli" / "commands.py")
    assert ("tournaments.store", True) in imports(PACKAGE / "play" / "runner.py")


async def test_the_remote_arena_gives_a_table_back_when_a_bot_is_not_there(
    tmp_path: Path,
) -> None:
    registry = BotRegistry(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    server = ArenaServer(registry)
    arena = RemoteArena(server, seat_wait=0.05)
    options = TableOptions(4)
    table = TableToPlay("t", 0, GameState(seeded_deal(1, 4), options), ("a", "b", "c", "d"),
                        TimeControl())
    assert list(arena.connected_bots()) == []
    assert arena.awaiting(table.bots, "french-tarot") == ["a", "b", "c", "d"]
    with trio.fail_after(10), pytest.raises(BotAwayError, match="bot a is not connected"):
        await arena.play(table)
