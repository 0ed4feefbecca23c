"""The bot author's guide holds: its example bots play real deals, its Python blocks run, its
commands exist, and the output it quotes is what the commands print.

Python blocks of ``docs/bot-guide.md`` run in order in one namespace with ``docs/examples`` on
the import path; a block whose first line says it ``needs a running arena`` is compiled only.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from arena.games.french_tarot import (
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    HideTrump,
    Play,
    TableOptions,
    seeded_deal,
)
from arena.games.french_tarot.cards import is_trump
from clients.local import play_local, play_match
from clients.random_bot import RandomBot
from tournaments.cli import commands as cli_module
from tournaments.duplicate.scoring import compute_standings

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
GUIDE = DOCS / "bot-guide.md"


def blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", path.read_text(), re.DOTALL | re.MULTILINE)


@pytest.fixture
def examples_importable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(EXAMPLES))
    yield
    for name in ("minimal_bot", "sensible_bot"):
        sys.modules.pop(name, None)


def test_the_minimal_example_is_about_20_lines_and_is_the_guide_s() -> None:
    source = (EXAMPLES / "minimal_bot.py").read_text()
    assert len(source.splitlines()) <= 20
    assert source in blocks(GUIDE, "python")  # the guide shows the file itself


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_example_bots_play_real_deals(examples_importable: None, players: int) -> None:
    from minimal_bot import LowestCard
    from sensible_bot import SensibleBot

    bots = [SensibleBot(), LowestCard(), SensibleBot(boldness=1.3), RandomBot(1), RandomBot(2)]
    ids = ["sensible", "lowest", "sensible", "random", "random"]
    entries = play_match(bots[:players], boards=6, seed=players, bot_ids=ids[:players])
    assert len(entries) == 6 * players * players
    assert all(e.infractions == 0 for e in entries)  # every answer legal, nothing raised
    assert {row.bot_id for row in compute_standings(entries).rows} == set(ids[:players])


def test_the_complete_example_makes_every_kind_of_decision(examples_importable: None) -> None:
    """Bids, calls, discards, the chelem question, a poignée with hidden trumps and plays, by
    SensibleBot, on seeded five-player deals (skipping, once only the poignée is missing, the
    deals where no hand holds enough trumps for one: 8, or 9 to hide one)."""
    from sensible_bot import SensibleBot

    needed = {Bid, CallCard, Discard, ChelemChoice, DeclarePoignee, HideTrump, Play}
    options = TableOptions(players=5)
    made: set[type] = set()
    for seed in range(600):
        missing = needed - made
        if not missing:
            break
        deal = seeded_deal(seed, 5, seed % 5)
        most = max(sum(map(is_trump, hand)) for hand in deal.hands)
        if missing <= {DeclarePoignee, HideTrump} and most < (9 if HideTrump in missing else 8):
            continue
        outcome = trio.run(play_local, deal, options, [SensibleBot() for _ in range(5)])
        assert outcome.infractions == []
        made |= {type(action) for _, action in outcome.record.actions}
    assert made >= needed, needed - made


def test_the_guide_s_python_blocks_run(
    examples_importable: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "bot_guide"}
    found = blocks(GUIDE, "python")
    assert len(found) >= 5
    for index, block in enumerate(found):
        code = compile(block, f"bot-guide.md block {index + 1}", "exec")
        if block.startswith("# needs a running arena"):
            continue
        exec(code, namespace)


def tarot_arena_lines(path: Path) -> list[list[str]]:
    commands = []
    for block in blocks(path, "sh"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip().rstrip("&").strip()
            if line.startswith("tarot-arena "):
                commands.append(shlex.split(line.split(" > ")[0])[1:])
    return commands


def _help(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    monkeypatch.setattr(sys, "argv", ["tarot-arena", *argv])
    with contextlib.suppress(SystemExit):
        cli_module.main()
    return capsys.readouterr().out


@pytest.mark.parametrize("doc", ["docs/bot-guide.md", "README.md"])
def test_every_tarot_arena_command_of_the_docs_exists(
    doc: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each command line parses as far as ``--help`` of its (sub)command."""
    commands = tarot_arena_lines(ROOT / doc)
    assert commands
    top = _help(["--help"], capsys, monkeypatch)
    helps: dict[tuple[str, ...], str] = {}  # rich draws a command's help in a second or so
    for args in commands:
        while args and args[0].startswith("--"):  # the app's own options, before the command
            assert args[0].split("=")[0] in top, (args, args[0])
            args = args[1:] if "=" in args[0] else args[2:]
        words = [a for a in args if not a.startswith("-")]
        groups = {group.name for group in cli_module.app.registered_groups}
        path = tuple(words[:2] if words and words[0] in groups else words[:1])
        if path not in helps:
            monkeypatch.setattr(sys, "argv", ["tarot-arena", *path, "--help"])
            code: object = 0
            try:
                cli_module.main()
            except SystemExit as exited:
                code = exited.code
            helps[path] = capsys.readouterr().out
            assert code in (0, None), (args, helps[path])
        out = helps[path]
        assert "Usage" in out or "usage" in out, (args, out)
        for option in (a.split("=")[0] for a in args if a.startswith("--")):
            assert option in out, (args, option)  # an option the command really has


def test_the_output_the_guide_quotes_is_what_try_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = GUIDE.read_text()
    quoted = re.search(r"^```\n(lowest-card against .*?)^```$", text, re.DOTALL | re.MULTILINE)
    assert quoted
    monkeypatch.chdir(EXAMPLES)
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.setattr(cli_module, "console", cli_module.Console(width=200))
    monkeypatch.setattr(sys, "argv", ["tarot-arena", "try", "minimal_bot:LowestCard"])
    cli_module.main()
    assert capsys.readouterr().out == quoted[1]
    sys.modules.pop("minimal_bot", None)


def test_the_rules_page_covers_section_by_section() -> None:
    rules = (DOCS / "rules.md").read_text()
    for heading in ("The cards", "Seats and the deal", "Bidding", "Five players: the called King",
                    "The chien and the discard", "Announcements before the first trick",
                    "Playing the tricks", "Scoring one deal", "Variants"):
        assert f"## {heading}" in rules
    assert "**Beginner**" in rules and "X = (25 + 8 + 10) x 2 + 20 = 106" in rules
    from arena.games.french_tarot import POIGNEE_THRESHOLDS

    for players, levels in POIGNEE_THRESHOLDS.items():
        assert f"| {players} | " + " | ".join(str(n) for n in levels.values()) + " |" in rules
