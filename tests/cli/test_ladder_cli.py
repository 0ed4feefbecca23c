"""``tarot-arena ladder``: every command in-process, in every game form, and its errors in one
line each."""

from __future__ import annotations

import json
import random

import pytest
import trio
from sqlalchemy.engine import Engine

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from clients.random_bot import RandomBot
from clients.tre_bots import TreRandomBot
from tests.cli.entry import run_entry_point
from tests.tournaments.ladder_bots import ComingAndGoing
from tournaments.ladder.service import LadderService
from tournaments.storage.ladders import LadderStore
from tournaments.store import TournamentStore

FORMS = [("french-tarot", 2), ("french-tarot", 3), ("french-tarot", 4), ("french-tarot", 5),
         ("tre-e-venticinque", 3)]


@pytest.fixture
def cli(tmp_path: object, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> object:
    url = f"sqlite:///{tmp_path}/arena.db"

    def run(*argv: str) -> tuple[int, str, str]:
        return run_entry_point(capsys, monkeypatch, "--db", url, *argv)

    run.engine = make_engine(url)  # type: ignore[attr-defined]
    return run


def play(engine: Engine, name: str, tables: int) -> None:
    """Play ``tables`` tables of the ladder with seeded random bots, in this process."""
    store = TournamentStore(engine)
    ladders = LadderStore(store.engine)
    ladder = ladders.ladder(name)
    game = LadderStore.settings(ladder).game
    members = [m.bot_id for m in ladders.members(ladder.id)]
    make = TreRandomBot if game == "tre-e-venticinque" else RandomBot
    arena = ComingAndGoing({b: make(i) for i, b in enumerate(members)})
    service = LadderService(store, arena, recheck=0.05, rng=random.Random(1))

    async def main() -> None:
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:
                nursery.start_soon(service.run, ladder.id)
                while ladders.tables_done(ladder.id) < tables:
                    await trio.sleep(0.02)
                nursery.cancel_scope.cancel()

    trio.run(main)


@pytest.mark.parametrize(("game", "players"), FORMS)
def test_a_ladder_in_every_game_form_from_create_to_final(
        cli: object, game: str, players: int) -> None:
    run = cli
    run = cli
    code, out, err = run("ladder", "create", "main", "--game", game, "--players",  # type: ignore[operator]
                         str(players), "--json")
    assert code == 0, err
    assert json.loads(out)["players"] == players
    unit = "thirds" if game == "tre-e-venticinque" else "points"
    assert (json.loads(out)["model"], json.loads(out)["unit"]) == ("margin", unit)
    engine = run.engine  # type: ignore[attr-defined]
    registry = BotRegistry(engine)
    names = [f"bot-{i}" for i in range(2 * players)]
    for name in names:
        registry.register(name)
    code, out, err = run("ladder", "join", "main", *names)  # type: ignore[operator]
    assert code == 0 and out.count("joined main") == 2 * players, (out, err)
    play(engine, "main", 2)
    code, out, err = run("ladder", "standings", "main", "--json")  # type: ignore[operator]
    assert code == 0, err
    standings = json.loads(out)
    assert standings["tables"] >= 2 and len(standings["entries"]) == 2 * players
    assert (standings["model"], standings["unit"]) == ("margin", unit)
    assert all(e["low"] <= e["rating"] <= e["high"] for e in standings["entries"])
    code, out, err = run("ladder", "final", "main", "--top", str(2 * players),  # type: ignore[operator]
                         "--boards", "4", "--json")
    assert code == 0, err
    final = json.loads(out)
    assert len(final["bots"]) == 2 * players
    settings = TournamentStore(engine).settings(final["id"])
    assert settings.seating.safe and settings.game == game and settings.players == players


def test_the_standings_as_a_table_and_a_refit_to_the_same_numbers(cli: object) -> None:
    run = cli
    run("ladder", "create", "duo", "--players", "2")  # type: ignore[operator]
    registry = BotRegistry(run.engine)  # type: ignore[attr-defined]
    names = [f"bot-{i}" for i in range(4)]
    for name in names:
        registry.register(name)
    code, out, _ = run("ladder", "join", "duo", *names[:3])  # type: ignore[operator]
    assert code == 0 and "it plays from 4 on" in out
    run("ladder", "join", "duo", names[3])  # type: ignore[operator]
    play(run.engine, "duo", 2)  # type: ignore[attr-defined]
    code, out, _ = run("ladder", "standings", "duo")  # type: ignore[operator]
    assert code == 0 and "bot-0" in out and "interval" in out and "2 players with the dummy" in out
    assert "rating (points)" in out and "margins (points per board" in out
    code, out, _ = run("ladder", "refit", "duo")  # type: ignore[operator]
    assert code == 0 and "refitted from" in out  # the fit the service stored may be older
    code, out, _ = run("ladder", "refit", "duo", "--json")  # type: ignore[operator]
    assert code == 0 and json.loads(out)["largest_change"] == 0.0
    code, out, _ = run("ladder", "refit", "duo")  # type: ignore[operator]
    assert "the same numbers as stored" in out
    tid = LadderStore(run.engine).ladder("duo").tournament_id  # type: ignore[attr-defined]
    assert tid is not None
    for command in (("tournament", "cancel", tid), ("tournament", "delete", tid, "--yes"),
                    ("tournament", "run", tid), ("export", tid)):
        code, _, err = run(*command)  # type: ignore[operator]
        assert code == 1 and "is ladder duo's" in err and err.count("error:") == 1, err
    code, out, _ = run("ladder", "leave", "duo", "bot-0")  # type: ignore[operator]
    assert code == 0 and "left duo" in out
    code, out, _ = run("ladder", "standings", "duo", "--json")  # type: ignore[operator]
    assert {e["status"] for e in json.loads(out)["entries"] if e["name"] == "bot-0"} == {"left"}


def test_a_ladder_rated_on_wins_says_so_on_the_elo_scale(cli: object) -> None:
    run = cli
    code, out, err = run("ladder", "create", "old", "--players", "3", "--model", "wins",  # type: ignore[operator]
                         "--json")
    assert code == 0, err
    assert (json.loads(out)["model"], json.loads(out)["unit"]) == ("wins", "Elo")
    code, out, _ = run("ladder", "standings", "old", "--json")  # type: ignore[operator]
    assert (json.loads(out)["model"], json.loads(out)["unit"]) == ("wins", "Elo")
    code, out, _ = run("ladder", "create", "new", "--players", "3")  # type: ignore[operator]
    assert code == 0 and "rated on margins (points per board" in out


@pytest.mark.parametrize(("argv", "message"), [
    (("ladder", "create", "bad name"), "a ladder's name is 1 to 80"),
    (("ladder", "create", "x", "--players", "6"), "not 6"),
    (("ladder", "create", "x", "--game", "tre-e-venticinque", "--players", "2"), "not 2"),
    (("ladder", "create", "x", "--versions", "sometimes"), "unknown --versions"),
    (("ladder", "create", "x", "--model", "elo"), "unknown --model 'elo'"),
    (("ladder", "create", "x", "--setting", "beginner=maybe"), "beginner"),
    (("ladder", "create", "x", "--tables-per-board", "1"), "tables per board"),
    (("ladder", "join", "nope", "b"), "no ladder named 'nope'"),
    (("ladder", "standings", "nope"), "no ladder named 'nope'"),
    (("ladder", "refit", "nope"), "no ladder named 'nope'"),
    (("ladder", "final", "nope"), "no ladder named 'nope'"),
])
def test_every_error_is_one_line(cli: object, argv: tuple[str, ...], message: str) -> None:
    code, out, err = cli(*argv)  # type: ignore[operator]
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code != 0 and len(lines) == 1 and message in lines[0], (out, err)


def test_joining_an_unknown_bot_or_a_final_too_small_is_refused(cli: object) -> None:
    run = cli
    run("ladder", "create", "duo", "--players", "2")  # type: ignore[operator]
    code, _, err = run("ladder", "join", "duo", "ghost")  # type: ignore[operator]
    assert code == 1 and "no bot with id or name 'ghost'" in err
    code, _, err = run("ladder", "final", "duo", "--top", "3")  # type: ignore[operator]
    assert code == 1 and "needs at least 4 bots" in err
    code, _, err = run("ladder", "final", "duo", "--top", "4")  # type: ignore[operator]
    assert code == 1 and "has 0 bots with results still in it" in err
    code, out, _ = run("ladder", "list", "--json")  # type: ignore[operator]
    assert [row["name"] for row in json.loads(out)] == ["duo"]


def test_tournament_list_leaves_a_ladders_own_tournament_out(cli: object) -> None:
    """A ladder plays on a tournament of its own that no tournament command runs or exports:
    ``tournament list`` leaves it out, and says where ladders are listed."""
    run = cli
    assert run("ladder", "create", "main", "--players", "3")[0] == 0  # type: ignore[operator]
    registry = BotRegistry(run.engine)  # type: ignore[attr-defined]
    ids = [registry.register(f"bot-{i}")[0].id for i in range(6)]
    assert run("ladder", "join", "main", *ids)[0] == 0  # type: ignore[operator]
    assert LadderStore(run.engine).ladder("main").tournament_id  # type: ignore[attr-defined]
    assert run("tournament", "create", "--players", "3", *ids[:3])[0] == 0  # type: ignore[operator]
    code, out, err = run("tournament", "list", "--json")  # type: ignore[operator]
    assert code == 0, err
    assert [row["name"] for row in json.loads(out)] == ["tournament"]
    code, out, err = run("tournament", "list")  # type: ignore[operator]
    assert code == 0 and "ladder main" not in out, out
    assert "Ladders are listed by tarot-arena ladder list." in out
