"""``python -m clients.run``: a bot in a process of its own, and one-line errors."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from arena import games
from clients import run

from .conftest import Arena, eventually

ROOT = Path(__file__).resolve().parents[2]


def command(arena: Arena, *extra: str) -> list[str]:
    return [sys.executable, "-m", "clients.run", "--server", arena.address,
            "--bot", "clients.random_bot:RandomBot", *extra]


def environment(token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != run.TOKEN_ENV}
    if token is not None:
        env[run.TOKEN_ENV] = token
    return env


async def play_then_interrupt(
    arena: Arena, argv: list[str], token: str, stderr: Path, tables: int
) -> tuple[int, str]:
    """Start a bot process, play ``tables`` tables with it in every seat (no infraction), then
    Ctrl-C it: its exit status and what it logged."""
    bot_id = arena.bots[0][0]
    with stderr.open("wb") as sink:
        process = await trio.lowlevel.open_process(
            argv, env=environment(token), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=sink,
        )
        try:
            await arena.server.wait_for_bots([bot_id], timeout=10)
            outcomes = await arena.play_many(
                [(f"t{k}", [bot_id] * 4, k) for k in range(tables)])
            assert all(o.infractions == [] for o in outcomes.values())
            process.send_signal(signal.SIGINT)
            with trio.fail_after(5):
                code = await process.wait()
        finally:
            if process.returncode is None:
                process.kill()
    return code, stderr.read_text()


async def test_a_bot_process_plays_tables_and_stops_cleanly_on_ctrl_c(
    arena: Arena, tmp_path: Path
) -> None:
    code, log = await play_then_interrupt(
        arena, command(arena, "--max-tables", "8", "--bot-args", '{"seed": 3}'),
        arena.bots[0][1], tmp_path / "stderr.txt", tables=2)
    assert code == 0, log
    assert "Traceback" not in log and "SIGINT: closing the connection" in log
    await eventually(lambda: not arena.server.connected_bots())


async def test_a_bad_token_exits_with_one_clear_line(arena: Arena) -> None:
    with trio.fail_after(10):
        result = await trio.run_process(
            command(arena), env=environment("tka_wrong"), cwd=ROOT,
            capture_stdout=True, capture_stderr=True, check=False,
        )
    lines = result.stderr.decode().strip().splitlines()
    assert result.returncode == run.EXIT_REJECTED
    assert lines == [
        "error: the arena refused the connection: UNAUTHENTICATED: unknown or revoked bot token"
    ]


@pytest.mark.parametrize(("args", "message"), [
    (["--bot", "clients.random_bot:RandomBot"], "no bot token"),
    (["--bot", "RandomBot"], "module.path:ClassName"),
    (["--bot", "clients.nowhere:Bot"], "cannot import bot 'clients.nowhere:Bot'"),
    (["--bot", "clients.random_bot:Nobody"], "has no 'Nobody'"),
    (["--bot", "clients.random_bot:hashlib.sha256"], "not a clients.sdk.Bot"),
    (["--bot", "clients.random_bot:__name__"], "neither a Bot class"),
    (["--bot", "clients.random_bot:RandomBot", "--bot-args", "[1]"],
     "JSON object"),
    (["--bot", "clients.random_bot:RandomBot", "--bot-args", '{"x": 1}'],
     "cannot create"),
    (["--bot", "clients.random_bot:RandomBot", "--max-tables", "0"],
     "--max-tables must be at least 1"),
])
def test_usage_errors_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if message == "no bot token":
        monkeypatch.delenv(run.TOKEN_ENV, raising=False)
    else:
        monkeypatch.setenv(run.TOKEN_ENV, "t")  # --token would add its warning line
    assert run.main(["--server", "127.0.0.1:1", *args]) == run.EXIT_USAGE
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0], err


def test_load_bot_accepts_classes_factories_and_instances() -> None:
    assert run.load_bot("clients.random_bot:RandomBot", {"seed": 4}).seed == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "cls"), [
    ("random", "RandomBot"), ("heuristic", "HeuristicBot"), ("search", "SearchBot"),
    ("search-timed", "SearchBot"), ("tre-random", "TreRandomBot"),
    ("tre-heuristic", "TreHeuristicBot"),
])
def test_a_bundled_bot_is_reached_by_its_short_name(name: str, cls: str) -> None:
    bot = run.load_bot(name, {})
    assert type(bot).__name__ == cls
    assert run.PRESETS[name].spec.endswith(f":{cls}")
    # Its line of help names the games it plays, and only those (the help is written out so
    # that it costs no bot's imports).
    about = run.PRESETS[name].about.partition(":")[0]
    plays = {games.game(game).title for game in getattr(bot, "games", (games.DEFAULT_GAME,))}
    assert set(about.split(" and ")) == plays, about


def test_the_search_preset_is_reproducible_and_the_timed_one_fills_the_time() -> None:
    from clients.search_bot import SearchBot

    search, timed = run.load_bot("search", {}), run.load_bot("search-timed", {})
    assert isinstance(search, SearchBot) and isinstance(timed, SearchBot)
    assert search.samples == run.SEARCH_SAMPLES and timed.samples is None


def test_a_presets_arguments_give_way_to_the_users() -> None:
    from clients.search_bot import SearchBot

    bot = run.load_bot("search", {"samples": 7, "seed": 3})
    assert isinstance(bot, SearchBot) and (bot.samples, bot.seed) == (7, 3)
    assert run.load_bot("random", {"seed": 9}).seed == 9  # type: ignore[attr-defined]


def test_an_unknown_short_name_lists_the_known_ones() -> None:
    with pytest.raises(run.UsageError) as caught:
        run.load_bot("serch", {})
    message = str(caught.value)
    assert message.startswith("unknown bot 'serch': a bundled bot's name (")
    assert all(name in message for name in run.PRESETS)
    assert "module.path:ClassName" in message


def test_the_runners_help_lists_the_bundled_bots(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        run.main(["--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(name in out for name in run.PRESETS)


async def test_a_bot_process_started_by_short_name_plays(arena: Arena, tmp_path: Path) -> None:
    """``python -m clients.run search``: the bundled search bot, over the wire."""
    code, log = await play_then_interrupt(
        arena, [sys.executable, "-m", "clients.run", "search", "--server", arena.address,
                "--arg", "samples=4"],
        arena.bots[0][1], tmp_path / "stderr.txt", tables=1)
    assert code == 0, log
    assert "Traceback" not in log
