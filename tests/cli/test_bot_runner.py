"""``tarot-arena bot module:Class``: a bot module of the current folder, against a real arena.

The arena runs in the test (trio, loopback gRPC); the bot runs as the installed
``tarot-arena`` script in a process whose current folder holds the bot's module, so the
import path is the script's own (its folder is the virtualenv's ``bin``), as a user has it.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from clients import run
from tests.clients.conftest import Arena, arena, eventually  # noqa: F401  (the fixture)
from tests.transport.conftest import bridge_name_fixture  # noqa: F401  (what arena takes)

SCRIPT = Path(sys.executable).parent / "tarot-arena"
ROOT = Path(__file__).resolve().parents[2]
needs_script = pytest.mark.skipif(
    not SCRIPT.exists() and not os.environ.get("CI"),  # under CI it must be there: fail
    reason="the tarot-arena script is not installed (make install)",
)

MY_BOT = '''
from clients.sdk import Bot
from arena.games.french_tarot import Play


class MyBot(Bot):
    name = "my-bot"

    def __init__(self, greeting="hello", depth=1):
        self.greeting, self.depth = greeting, depth

    def on_table_start(self, table):
        print(f"{self.greeting} {self.depth} {table.table_id}", flush=True)

    def decide(self, table, request):
        plays = [a for a in request.legal_actions if isinstance(a, Play)]
        return plays[0] if plays else request.legal_actions[0]
'''


def env_with(token: str | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in (run.TOKEN_ENV, "PYTHONPATH", "TAROT_ARENA_DB")}
    if token is not None:
        env[run.TOKEN_ENV] = token
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


async def play_with_bot_process(
    served: Arena, folder: Path, args: list[str], env: dict[str, str]
) -> tuple[int, str, str]:
    """Start ``tarot-arena bot ARGS`` in ``folder``, play two tables with it in every seat,
    stop it with Ctrl-C: its exit status, stdout and stderr."""
    bot_id = served.bots[0][0]
    out, err = folder / "out.txt", folder / "err.txt"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = await trio.lowlevel.open_process(
            [str(SCRIPT), "bot", *args, "--server", served.address], cwd=folder, env=env,
            stdout=stdout, stderr=stderr,
        )
        try:
            with trio.fail_after(20):
                await served.server.wait_for_bots([bot_id], timeout=20)
            outcomes = await served.play_many([(f"t{k}", [bot_id] * 4, k) for k in range(2)])
            assert all(o.infractions == [] for o in outcomes.values()), outcomes
            process.send_signal(signal.SIGINT)
            with trio.fail_after(10):
                code = await process.wait()
        finally:
            if process.returncode is None:
                process.kill()
    return code, out.read_text(), err.read_text()


@needs_script
async def test_tarot_arena_bot_imports_a_module_of_the_current_folder(
    arena: Arena, tmp_path: Path  # noqa: F811
) -> None:
    (tmp_path / "mybot.py").write_text(MY_BOT)
    token_file = tmp_path / "token"
    token_file.write_text(arena.bots[0][1] + "\n")  # a final newline, as editors write
    code, out, err = await play_with_bot_process(
        arena, tmp_path,
        ["mybot:MyBot", "--token-file", str(token_file), "--arg", "greeting=bonjour",
         "--arg", "depth=3"],
        env_with(None),
    )
    assert code == 0, err
    assert "bonjour 3 t0" in out and "bonjour 3 t1" in out  # the --arg values reached it
    assert "Traceback" not in err and "warning" not in err
    await eventually(lambda: not arena.server.connected_bots())


@needs_script
async def test_a_token_on_the_command_line_works_but_warns(
    arena: Arena, tmp_path: Path  # noqa: F811
) -> None:
    (tmp_path / "mybot.py").write_text(MY_BOT)
    code, _, err = await play_with_bot_process(
        arena, tmp_path, ["mybot:MyBot", "--token", arena.bots[0][1]], env_with(None))
    assert code == 0, err
    assert ("warning: --token shows in `ps` and in shell history: prefer TAROT_ARENA_TOKEN or "
            "--token-file FILE") in err


@needs_script
def test_the_import_error_of_a_missing_module_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("import no_such_dependency_here\n")
    result = subprocess.run(
        [str(SCRIPT), "bot", "broken:Bot"], cwd=tmp_path, env=env_with("tka_x"),
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == run.EXIT_USAGE
    assert result.stderr.strip().splitlines() == [
        "error: cannot import bot 'broken:Bot': No module named 'no_such_dependency_here'"]


def test_read_secret_order_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    warned: list[str] = []
    common = {"flag_name": "--token", "file_flag": "--token-file", "env": "SECRET_FOR_TEST",
              "warn": warned.append}
    monkeypatch.setenv("SECRET_FOR_TEST", " from-env \n")
    assert run.read_secret(flag=None, file=None, **common) == "from-env"
    secret = tmp_path / "secret"
    secret.write_text("from-file\n")
    assert run.read_secret(flag=None, file=str(secret), **common) == "from-file"
    assert warned == []
    assert run.read_secret(flag="from-flag", file=str(secret), **common) == "from-flag"
    assert len(warned) == 1 and "--token shows in `ps`" in warned[0]
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(run.UsageError, match=r"--token-file .*empty is empty"):
        run.read_secret(flag=None, file=str(tmp_path / "empty"), **common)
    monkeypatch.delenv("SECRET_FOR_TEST")
    assert run.read_secret(flag=None, file=None, **common) == ""


def test_an_arena_never_reached_is_cannot_connect_not_a_lost_connection(tmp_path: Path) -> None:
    """Nothing was ever connected, so nothing was lost: the log says it cannot connect."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nothing listens there
    result = subprocess.run(
        [sys.executable, "-m", "clients.run", "random", "--server", f"127.0.0.1:{port}",
         "--connect-timeout", "1.5"],
        cwd=tmp_path, env={**env_with("tka_x"), "PYTHONPATH": str(ROOT)},
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == run.EXIT_UNREACHABLE, result.stderr
    assert f"cannot connect to 127.0.0.1:{port} (UNAVAILABLE" in result.stderr
    assert "lost" not in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith(
        f"error: cannot reach the arena at 127.0.0.1:{port} after 1.5 s")
