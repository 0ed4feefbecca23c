"""A bot that does not load, or fails while it plays, as each command tells it: one loader of
bot specs for ``bot``, ``try`` and ``compare`` (one usage-error line, exit status 2, the file
and line), and ``try`` showing where the bot failed, its own frames only unless ``--debug``.

Every test runs a real process from a folder holding the user's module, as a user does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

BROKEN = {
    "syntax": ("from clients.sdk import Bot\n\n\nclass Broken(Bot)\n    pass\n",
               "SyntaxError: expected ':' (broken.py, line 4)"),
    "name": ("from clients.sdk import Bot\n\nhelper = undefined_helper\n\n\n"
             "class Broken(Bot):\n    pass\n",
             "NameError: name 'undefined_helper' is not defined (broken.py, line 3)"),
    "dependency": ("import no_such_dependency_here\n",
                   "No module named 'no_such_dependency_here'"),
    "raises": ("raise RuntimeError('not today')\n", "RuntimeError: not today (broken.py, line 1)"),
}

BUGGY = '''\
from arena.games.french_tarot import PASS
from clients.sdk import Bot


def check(table):
    if len(table.tricks) >= 3:
        raise RuntimeError(f"my bug at trick {len(table.tricks) + 1}")


class Buggy(Bot):
    name = "buggy"

    def bid(self, table, request):
        return PASS

    def decide(self, table, request):
        check(table)
        return request.legal_actions[0]
'''


def tarot_arena(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("TAROT_ARENA_DB", "TAROT_ARENA_TOKEN", "COLUMNS")}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "tournaments.cli",
                           "--db", f"sqlite:///{folder}/arena.db", *args],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120)


COMMANDS = {
    "bot": ["bot", "broken:Broken", "--server", "127.0.0.1:1", "--token-file", "token"],
    "try": ["try", "broken:Broken", "--boards", "1"],
    "try --against": ["try", "random", "--against", "broken:Broken", "--boards", "1"],
    "compare": ["compare", "--local", "broken:Broken", "random"],
}


@pytest.mark.parametrize("kind", list(BROKEN))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_module_that_does_not_import_is_one_usage_error_everywhere(
    tmp_path: Path, kind: str, command: str
) -> None:
    source, failure = BROKEN[kind]
    (tmp_path / "broken.py").write_text(source)
    (tmp_path / "token").write_text("tka_x\n")
    result = tarot_arena(tmp_path, *COMMANDS[command])
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert result.stderr.strip().splitlines() == [
        f"error: cannot import bot 'broken:Broken': {failure}"]
    assert "Traceback" not in result.stdout
    assert not (tmp_path / "arena.db").exists()  # nothing made for a command that failed


def test_debug_shows_the_import_traceback(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN["name"][0])
    result = tarot_arena(tmp_path, "--debug", "try", "broken:Broken")
    assert result.returncode == 1
    assert "Traceback" in result.stderr and 'broken.py", line 3' in result.stderr


def test_a_constructor_that_fails_is_one_usage_error(tmp_path: Path) -> None:
    (tmp_path / "picky.py").write_text(
        "from clients.sdk import Bot\n\n\nclass Picky(Bot):\n    def __init__(self):\n"
        "        raise ValueError('no config file')\n")
    result = tarot_arena(tmp_path, "try", "picky:Picky")
    assert result.returncode == 2
    assert result.stderr.strip() == ("error: cannot create bot 'picky:Picky': ValueError: no "
                                     "config file (picky.py, line 6)")


@pytest.mark.parametrize("error", ["RuntimeError", "IndexError", "ValueError"])
def test_try_shows_where_the_bot_failed_its_own_frames_only(tmp_path: Path, error: str) -> None:
    """Whatever the exception (an IndexError was once one bare line, a RuntimeError 60 lines
    of the arena's internals): which table, seat and decision, then the bot's frames."""
    (tmp_path / "buggy.py").write_text(BUGGY.replace("RuntimeError", error))
    result = tarot_arena(tmp_path, "try", "buggy:Buggy", "--boards", "1")
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[0] == (f"error: buggy raised at table local/b0/t0, seat 0, asked to play: "
                        f"{error}: my bug at trick 4")
    assert lines[1].startswith("Traceback of the bot")
    assert "--debug" in lines[1]
    frames = [line.strip() for line in lines[2:]]
    assert frames == [
        f'File "{tmp_path / "buggy.py"}", line 17, in decide', "check(table)",
        f'File "{tmp_path / "buggy.py"}", line 7, in check',
        'raise ' + error + '(f"my bug at trick {len(table.tricks) + 1}")',
        f"{error}: my bug at trick 4",
    ]
    assert "arena/table/runner.py" not in result.stderr
    assert "clients/local.py" not in result.stderr


def test_try_with_debug_shows_the_arena_s_frames_too(tmp_path: Path) -> None:
    (tmp_path / "buggy.py").write_text(BUGGY)
    result = tarot_arena(tmp_path, "--debug", "try", "buggy:Buggy", "--boards", "1")
    assert result.returncode == 1
    assert "arena/table/runner.py" in result.stderr and 'buggy.py", line 7' in result.stderr


def test_try_names_a_hook_that_failed(tmp_path: Path) -> None:
    (tmp_path / "hooked.py").write_text(
        "from clients.sdk import Bot\n\n\nclass Hooked(Bot):\n    name = 'hooked'\n\n"
        "    def on_table_start(self, table):\n        raise KeyError('memory')\n\n"
        "    def decide(self, table, request):\n        return request.legal_actions[0]\n")
    result = tarot_arena(tmp_path, "try", "hooked:Hooked", "--boards", "1")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[0] == ("error: hooked raised in on_table_start at table local/b0/t0, seat 0: "
                        "KeyError: 'memory'")
    assert 'hooked.py", line 8, in on_table_start' in result.stderr


def test_bot_with_debug_logs_the_import_traceback(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(BROKEN["name"][0])
    (tmp_path / "token").write_text("tka_x\n")
    result = tarot_arena(tmp_path, "--debug", *COMMANDS["bot"])
    assert result.returncode == 2
    assert "Traceback" in result.stderr and 'broken.py", line 3' in result.stderr
    assert result.stderr.strip().splitlines()[-1] == (
        f"error: cannot import bot 'broken:Broken': {BROKEN['name'][1]}")
