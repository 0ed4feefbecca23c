"""``tournament cancel`` and ``tournament delete`` touch one tournament only, on SQLite and
PostgreSQL; ``serve`` skips a cancelled tournament; a large tournament states its size first.

Played tables come from the store's own claim and finish, each deal played in-process by
RandomBots (:func:`clients.local.play_local`): the rows are exactly those a served
tournament writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
import trio
from rich.console import Console
from sqlmodel import Session, col, func, select

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import (
    ArenaTable,
    Board,
    Decision,
    TableSeat,
    Tournament,
    TournamentStatus,
)
from clients.local import play_local
from clients.random_bot import RandomBot
from tests.cli.entry import run_entry_point
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play import live
from tournaments.store import TournamentStore

Cli = Callable[..., tuple[int, str, str]]


@dataclass
class Setup:
    url: str
    store: TournamentStore
    bots: list[str]
    first: str
    second: str


def play_some(store: TournamentStore, tid: str, count: int) -> None:
    """Claim, play and store ``count`` tables of ``tid``."""
    settings = store.settings(tid)
    for _ in range(count):
        claim = store.claim_next(tid, "tester")
        assert claim is not None
        outcome = trio.run(lambda c=claim: play_local(
            c.deal, settings.table_options, [RandomBot(i) for i in range(4)], c.table_id,
            bot_ids=c.bots))
        assert store.finish(claim.table_id, "tester", outcome)


@pytest.fixture
def setup(db_url: str) -> Setup:
    store = TournamentStore(make_engine(db_url))
    registry = BotRegistry(store.engine)
    bots = [registry.register(name)[0].id for name in ("ann", "bob", "cid", "dan")]
    first = store.create(TournamentSettings(name="first", bots=tuple(bots), boards=2, seed=1))
    second = store.create(TournamentSettings(name="second", bots=tuple(bots), boards=2, seed=2))
    play_some(store, first, 3)
    play_some(store, second, 2)
    return Setup(db_url, store, bots, first, second)


def run_cli(db: str, *args: str, capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    return run_entry_point(capsys, monkeypatch, "--db", db, *args)


@pytest.fixture
def cli(
    setup: Setup, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Cli]:
    def invoke(*args: str) -> tuple[int, str, str]:
        return run_cli(setup.url, *args, capsys=capsys, monkeypatch=monkeypatch)

    yield invoke


def snapshot(store: TournamentStore, tid: str) -> dict[str, object]:
    """Every row of one tournament, as comparable values."""
    with Session(store.engine) as session:
        tour = session.get(Tournament, tid)
        tables = session.exec(select(ArenaTable).where(ArenaTable.tournament_id == tid)
                              .order_by(col(ArenaTable.id))).all()
        ids = [t.id for t in tables]
        return {
            "tournament": None if tour is None else (tour.status, tour.name, tour.seed),
            "boards": [(b.number, b.deal_json) for b in session.exec(
                select(Board).where(Board.tournament_id == tid).order_by(col(Board.number)))],
            "tables": [(t.id, t.status, t.record_json) for t in tables],
            "seats": [(s.table_id, s.seat, s.bot_id, s.score) for s in session.exec(
                select(TableSeat).where(col(TableSeat.table_id).in_(ids))
                .order_by(col(TableSeat.table_id), col(TableSeat.seat)))],
            "decisions": session.exec(select(func.count()).select_from(Decision).where(
                col(Decision.table_id).in_(ids))).one(),
        }


def bots_snapshot(store: TournamentStore) -> list[tuple[str, str, bool]]:
    return [(b.id, b.name, b.revoked) for b in BotRegistry(store.engine).list()]


def test_cancel_stops_one_tournament_and_keeps_what_was_played(setup: Setup, cli: Cli) -> None:
    store = setup.store
    before_first, before_second = snapshot(store, setup.first), snapshot(store, setup.second)
    bots = bots_snapshot(store)
    code, out, err = cli("tournament", "cancel", setup.first)
    assert code == 0, err
    assert f"{setup.first} cancelled: 5 tables will not be played" in out
    assert store.tournament(setup.first).status is TournamentStatus.CANCELLED
    after = snapshot(store, setup.first)
    assert {k: v for k, v in after.items() if k != "tournament"} == {
        k: v for k, v in before_first.items() if k != "tournament"}  # played tables kept
    assert snapshot(store, setup.second) == before_second and bots_snapshot(store) == bots
    assert store.claim_next(setup.first, "worker") is None  # no table is claimed any more
    assert store.claim_next(setup.second, "worker") is not None  # the other plays on
    code, out, _ = cli("tournament", "cancel", setup.first)
    assert code == 0 and "was already cancelled" in out
    assert "cancelled" in next(line for line in cli("tournament", "list")[1].splitlines()
                               if setup.first in line)
    code, _, err = cli("tournament", "run", setup.first, "--port", "0")
    assert code == 1 and err.strip() == (
        f"error: tournament {setup.first} is cancelled: it is not played any more")


def test_the_bots_of_a_cancelled_tournament_are_not_kept_waiting(setup: Setup, cli: Cli) -> None:
    """``serve`` tells bots with no table left that their work is done: a cancelled
    tournament's unplayed tables do not count."""
    assert live.bots_with_tables_left(setup.store) == set(setup.bots)
    assert cli("tournament", "cancel", setup.second)[0] == 0
    assert live.bots_with_tables_left(setup.store) == set(setup.bots)  # the first still plays
    assert cli("tournament", "cancel", setup.first)[0] == 0
    assert live.bots_with_tables_left(setup.store) == set()


def test_a_finished_tournament_cannot_be_cancelled(setup: Setup, cli: Cli) -> None:
    setup.store.set_status(setup.first, TournamentStatus.FINISHED)
    code, _, err = cli("tournament", "cancel", setup.first)
    assert code == 1 and err.strip() == (
        f"error: tournament {setup.first} is finished: nothing left to cancel")
    code, _, err = cli("tournament", "cancel", "tour_nope")
    assert code == 1 and err.strip() == "error: no tournament with id 'tour_nope'"


def test_delete_removes_one_tournament_and_nothing_else(setup: Setup, cli: Cli) -> None:
    store = setup.store
    before_second, bots = snapshot(store, setup.second), bots_snapshot(store)
    assert snapshot(store, setup.first)["decisions"]
    code, _, err = cli("tournament", "delete", setup.first)  # stdin is not a terminal here
    assert code == 1 and err.strip() == (
        f"error: deleting {setup.first} (first) removes its 8 tables, 3 of them played: pass "
        "--yes to confirm")
    assert snapshot(store, setup.first)["tournament"] is not None
    code, out, err = cli("tournament", "delete", setup.first, "--yes")
    assert code == 0, err
    assert f"{setup.first} deleted: 2 boards, 8 tables, " in out
    assert snapshot(store, setup.first) == {"tournament": None, "boards": [], "tables": [],
                                           "seats": [], "decisions": 0}
    assert snapshot(store, setup.second) == before_second and bots_snapshot(store) == bots
    assert [t.id for t in store.list()] == [setup.second]
    code, _, err = cli("tournament", "delete", setup.first, "--yes")
    assert code == 1 and err.strip() == f"error: no tournament with id '{setup.first}'"


def test_a_tournament_being_played_is_not_deleted(setup: Setup, cli: Cli) -> None:
    store = setup.store
    claim = store.claim_next(setup.second, "worker")
    assert claim is not None
    code, _, err = cli("tournament", "delete", setup.second, "--yes")
    assert code == 1 and err.strip() == (
        f"error: tournament {setup.second} has 1 table being played: cancel it first "
        "(tournament cancel), then delete it once they are stored, or stop the server "
        "playing it")
    code, out, _ = cli("tournament", "cancel", setup.second)
    assert code == 0 and "1 being played will be finished" in out
    store.release(claim.table_id, "worker")  # the worker stops; its table was not stored
    assert cli("tournament", "delete", setup.second, "--yes")[0] == 0
    assert [t.id for t in store.list()] == [setup.first]


def test_serve_skips_a_cancelled_tournament(
    setup: Setup, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``serve`` plays unfinished tournaments oldest first: the cancelled first one is skipped."""
    assert cli("tournament", "cancel", setup.first)[0] == 0
    played: list[str] = []

    async def fake_play(
        store: object, arena: object, tournament_id: str, *args: object, **kwargs: object
    ) -> None:
        played.append(tournament_id)
        raise KeyboardInterrupt  # stops serve as Ctrl-C does

    monkeypatch.setattr(live, "play_with_progress", fake_play)
    live.serve_forever(setup.store, host="127.0.0.1", port=0, admin_token="x", concurrency=1,
                       console=Console(file=open("/dev/null", "w")))  # noqa: SIM115
    assert played == [setup.second]


def test_a_large_tournament_states_its_size_before_creating_it(setup: Setup, cli: Cli) -> None:
    code, out, err = cli("tournament", "create", *setup.bots, "--boards", "300")
    assert code == 0, err
    assert "creating a tournament of 300 boards, 1200 tables, seating rotation..." in err
    assert "300 boards, 1200 tables, seating rotation" in out
    tid = out.split("tournament ")[-1].split(":")[0].strip()
    assert setup.store.progress(tid).pending == 1200
