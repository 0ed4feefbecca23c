"""``standings`` in a real 80-column terminal, every game form and option: each line at most
80 columns, nothing cut (the terminal crops what is wider: "ahea" for "ahead").

The command runs as a user runs it, its output on a pseudo-terminal of 80 columns (the width
rich reads from the terminal itself), and once more with ``COLUMNS=80`` on a pipe. A console
object's width alone is not enough: rich crops each line it prints to that width, so a table
drawn one column too wide still "fits" there, cut.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest
import trio
from sqlmodel import Session, select

from arena.games.display import score_unit
from arena.games.french_tarot import Direction
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import Bot
from clients.local import LocalArena
from clients.random_bot import RandomBot
from clients.tre_bots import TreRandomBot
from tournaments.cli.export import standings_of
from tournaments.duplicate.settings import ScoringMethod, TournamentSettings
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore

ROOT = Path(__file__).resolve().parents[2]
WIDTH = 80
FORMS = [(players, option) for players in (2, 3, 4, 5)
         for option in ("classic", "beginner", "clockwise", "matchpoints")] + [(3, "tre")]
NAME_SETS = {
    # Names that made the standings 81 columns wide at 5 players and under matchpoints.
    "the guide's": ("mine", "reference", "lowest-card", "heuristic", "random-1"),
    "uneven": ("a", "abcdefghijklm", "bb", "cccccccc", "dddddddddddddddd"),
}


def play_all(store: TournamentStore, tid: str) -> None:
    """Every table, on the in-process arena with random bots of the tournament's game."""
    settings = store.settings(tid)
    maker = TreRandomBot if settings.game == "tre-e-venticinque" else RandomBot
    arena = LocalArena({bot_id: maker(index) for index, bot_id in enumerate(settings.bots)})
    trio.run(TournamentRunner(store, arena, tid).run)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[tuple[int, str], str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('width')}/arena.db"
    store = TournamentStore(make_engine(url))
    ids = [BotRegistry(store.engine).register(f"bot{i}")[0].id for i in range(5)]
    tournaments = {}
    for players, option in FORMS:
        extra: dict[str, object] = {
            "beginner": {"game_settings": {"beginner": True}},
            "clockwise": {"game_settings": {"direction": Direction.CLOCKWISE}},
            "matchpoints": {"scoring": ScoringMethod.MATCHPOINTS},
            "tre": {"game": "tre-e-venticinque"}}.get(option, {})
        tid = store.create(TournamentSettings(
            name=f"{players} players, {option}", bots=tuple(ids[:players]), players=players,
            boards=2, seed=players, **extra))  # type: ignore[arg-type]
        play_all(store, tid)
        tournaments[(players, option)] = tid
    return url, tournaments


def rename(url: str, names: tuple[str, ...]) -> None:
    with Session(make_engine(url)) as session:
        bots = session.exec(select(Bot).order_by(Bot.name)).all()
        for bot, name in zip(bots, names, strict=True):
            bot.name = name
            session.add(bot)
        session.commit()


MARK = "=== standings of "
CHILD = """
import sys
from tournaments.cli.commands import main
for line in sys.stdin.read().split(chr(10)):
    if not line:
        continue
    print(MARK + line, flush=True)
    sys.argv = ["tarot-arena", *line.split(chr(9))]
    try:
        main()
    except SystemExit as exit:
        if exit.code:
            raise
"""


def in_terminal(commands: list[list[str]], columns: int = WIDTH) -> dict[str, str]:
    """``tarot-arena ARGS`` for each of ``commands``, their output on one pseudo-terminal
    ``columns`` wide (the width rich reads from the terminal itself): one process runs them all,
    one after another, so that the interpreter starts once. Each output, by its arguments
    joined with spaces."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "TAROT_ARENA_DB")}
    process = subprocess.Popen([sys.executable, "-c", f"MARK = {MARK!r}\n{CHILD}"], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=follower, stderr=follower,
                               env={**env, "TERM": "xterm"})
    os.close(follower)
    assert process.stdin is not None
    process.stdin.write("".join("\t".join(args) + "\n" for args in commands).encode())
    process.stdin.close()
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", b"".join(chunks).decode()).replace("\r", "")
    assert process.wait(60) == 0, text
    outputs = text.split(MARK)[1:]
    assert len(outputs) == len(commands), text
    return {out.split("\n", 1)[0].replace("\t", " "): out.split("\n", 1)[1] for out in outputs}


def on_a_pipe(args: list[str]) -> str:
    env = {k: v for k, v in os.environ.items() if k != "TAROT_ARENA_DB"}
    result = subprocess.run([sys.executable, "-m", "tournaments.cli", *args], cwd=ROOT,
                            env={**env, "COLUMNS": str(WIDTH)}, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def assert_whole_at_80(out: str, url: str, tid: str) -> None:
    lines = out.splitlines()
    for line in lines:
        assert len(line) <= WIDTH, (len(line), line, out)
    assert "…" not in out, out
    # Every header of the standings whole on its header line, every cell of every row there.
    headers = [line for line in lines if re.match(r"#\s+bot\s", line)]
    assert headers, out
    assert any(line.rstrip().endswith("ahead") for line in headers), out
    words = " ".join(headers).split()
    unit = score_unit(TournamentStore(make_engine(url)).settings(tid).rules).name
    for header in (unit, "±95%", "total", "boards", "infractions", "ahead"):
        assert header in words, (header, out)
    standings = standings_of(TournamentStore(make_engine(url)), tid)
    for row in standings.rows:
        assert f"{row.per_board.mean:+.1f}" in out and f"{row.total:+.0f}" in out, out
    verdicts = re.findall(r"(?<![\w-])(yes|no)\s*$", out, re.MULTILINE)
    assert len(verdicts) == len(standings.rows) - 1, out  # the last row has no "ahead"


def test_standings_fit_80_columns_in_a_terminal_and_on_a_pipe(
    world: tuple[str, dict[tuple[int, str], str]]
) -> None:
    """Every form under each set of names in an 80-column terminal, and two forms on a pipe
    with ``COLUMNS=80``. One test, so that under pytest-xdist the tournaments are played once,
    not once per worker; one interpreter runs every terminal command of a set of names."""
    url, tournaments = world
    checked = 0
    try:
        for names, forms in (("the guide's", FORMS),
                             ("uneven", [form for form in FORMS if form[0] in (2, 5)])):
            rename(url, NAME_SETS[names])
            tids = [tournaments[form] for form in forms]
            outputs = in_terminal([["--db", url, "standings", tid] for tid in tids])
            for tid in tids:
                assert_whole_at_80(outputs[f"--db {url} standings {tid}"], url, tid)
                checked += 1
    finally:
        rename(url, NAME_SETS["the guide's"])
    for form in ((5, "classic"), (4, "matchpoints")):
        tid = tournaments[form]
        assert_whole_at_80(on_a_pipe(["--db", url, "standings", tid]), url, tid)
    assert checked == len(FORMS) + 8
