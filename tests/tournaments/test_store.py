"""The tournament store on SQLite and PostgreSQL: creation, claims, atomic commits, resume."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter

import pytest
import trio
from sqlmodel import Session, select

from arena.rules import Bid, Contract, DealRecord, Play, TableOptions, replay
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import ArenaTable, Decision, TableSeat, TableStatus, Tournament
from arena.table import (
    DecisionRequest,
    PlayerInfo,
    TableOutcome,
    TableRunner,
    TimeControl,
)
from tournaments.export import export_tournament
from tournaments.settings import Seating, SettingsError, TournamentSettings
from tournaments.store import TournamentStore, new_worker_id


class QuietSeat:
    """A seat that plays its first legal card (bids garde when it can)."""

    connected = True

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    async def start(self, start: object, view: object) -> None: ...
    async def send(self, event: object) -> None: ...
    async def notice(self, notice: object) -> None: ...
    async def end(self, end: object) -> None: ...

    async def ask(self, request: DecisionRequest) -> object:
        legal = request.legal_actions
        garde = Bid(Contract.GARDE)
        if garde in legal and self.rng.random() < 0.3:
            return garde
        plays = [a for a in legal if isinstance(a, Play)]
        return self.rng.choice(plays or list(legal))


def play(claim_deal: object, bots: tuple[str, ...], table_id: str, seed: int) -> TableOutcome:
    rng = random.Random(seed)
    options = TableOptions(len(bots))
    seats = [QuietSeat(rng) for _ in bots]
    players = [PlayerInfo(s, b, b) for s, b in enumerate(bots)]
    runner = TableRunner(table_id, claim_deal, options, seats, players,  # type: ignore[arg-type]
                         TimeControl(1.0))
    return trio.run(runner.run)


@pytest.fixture
def store(db_url: str) -> TournamentStore:
    return TournamentStore(make_engine(db_url))


def register(store: TournamentStore, count: int) -> list[str]:
    registry = BotRegistry(store.engine)
    return [registry.register(f"bot-{i}")[0].id for i in range(count)]


def test_create_stores_boards_and_every_table(store: TournamentStore) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=3, seed=9))
    progress = store.progress(tid)
    assert (progress.pending, progress.running, progress.done) == (12, 0, 0)
    boards = store.boards(tid)
    assert [b.number for b in boards] == [0, 1, 2]
    assert [b.dealer for b in boards] == [0, 1, 2]
    # the stored deal is the seed's deal
    for board in boards:
        record = DealRecord.loads(board.deal_json)
        assert record.seed == int(board.deal_seed)
    tables = store.tables(tid)
    assert all(len(seats) == 4 for _, seats in tables)
    assert store.settings(tid).seed == 9


def test_create_rejects_unknown_or_revoked_bots(store: TournamentStore) -> None:
    bots = register(store, 4)
    with pytest.raises(SettingsError, match="no bot with id 'ghost'"):
        store.create(TournamentSettings(name="t", bots=(*bots[:3], "ghost")))
    BotRegistry(store.engine).revoke(bots[0])
    with pytest.raises(SettingsError, match="revoked"):
        store.create(TournamentSettings(name="t", bots=tuple(bots)))
    with Session(store.engine) as session:  # nothing half-created
        assert session.exec(select(Tournament)).all() == []


def test_claim_play_finish_and_standings(store: TournamentStore, tmp_path: object) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=2, seed=1))
    worker = new_worker_id()
    finished = 0
    while (claim := store.claim_next(tid, worker)) is not None:
        outcome = play(claim.deal, claim.bots, claim.table_id, finished)
        assert store.finish(claim.table_id, worker, outcome)
        # a second commit of the same table is refused: stored exactly once
        assert not store.finish(claim.table_id, worker, outcome)
        finished += 1
    assert finished == 8
    assert store.progress(tid).done == 8
    entries = store.entries(tid)
    assert len(entries) == 32
    # every stored record replays to its stored scores
    for table, seats in store.tables(tid):
        record = store.record(table.id)
        state = replay(record)
        assert state.result is not None
        assert [s.score for s in seats] == list(state.result.scores)
        assert len(store.decisions(table.id)) == len(record.actions)
    paths = export_tournament(store, tid, tmp_path)  # type: ignore[arg-type]
    data = json.loads(paths[0].read_text())
    assert len(data["tables"]) == 8 and len(data["standings"]) == 4
    assert paths[1].read_text().startswith("rank,")


def test_concurrent_workers_never_claim_the_same_table(store: TournamentStore) -> None:
    bots = register(store, 5)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=6,
                                          seating=Seating.FIELD))
    claimed: list[str] = []
    lock = threading.Lock()

    def work() -> None:
        worker = new_worker_id()
        while (claim := store.claim_next(tid, worker)) is not None:
            with lock:
                claimed.append(claim.table_id)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(claimed) == 12
    assert Counter(claimed).most_common(1)[0][1] == 1


def test_expired_lease_is_reclaimed_and_the_old_worker_cannot_commit(
    store: TournamentStore,
) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    old, new = new_worker_id(), new_worker_id()
    first = store.claim_next(tid, old, lease=-1.0)  # already expired
    assert first is not None
    again = store.claim_next(tid, new)
    assert again is not None and again.table_id == first.table_id and again.attempt == 2
    outcome = play(first.deal, first.bots, first.table_id, 0)
    assert not store.finish(first.table_id, old, outcome)  # lost its claim
    assert store.finish(again.table_id, new, outcome)


def test_dead_claims_of_this_host_go_back_to_pending(store: TournamentStore) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    import socket

    dead = f"{socket.gethostname()}:999999999:abc"  # no such pid
    claim = store.claim_next(tid, dead)
    assert claim is not None
    alive = new_worker_id()
    claim2 = store.claim_next(tid, alive)
    assert claim2 is not None
    assert store.release_dead_claims(tid) == 1  # only the dead one
    with Session(store.engine) as session:
        row = session.get(ArenaTable, claim.table_id)
        assert row is not None and row.status == TableStatus.PENDING
        row2 = session.get(ArenaTable, claim2.table_id)
        assert row2 is not None and row2.status == TableStatus.RUNNING


def test_finish_is_atomic(store: TournamentStore, monkeypatch: pytest.MonkeyPatch) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    worker = new_worker_id()
    claim = store.claim_next(tid, worker)
    assert claim is not None
    outcome = play(claim.deal, claim.bots, claim.table_id, 3)

    original = Session.add_all

    def broken(self: Session, rows: object) -> None:
        original(self, rows)  # type: ignore[arg-type]
        raise RuntimeError("disk full")

    monkeypatch.setattr(Session, "add_all", broken)
    with pytest.raises(RuntimeError):
        store.finish(claim.table_id, worker, outcome)
    monkeypatch.undo()
    with Session(store.engine) as session:
        row = session.get(ArenaTable, claim.table_id)
        assert row is not None and row.status == TableStatus.RUNNING and row.record_json is None
        assert session.exec(select(Decision)).all() == []
        assert all(s.score is None for s in session.exec(select(TableSeat)))
    assert store.finish(claim.table_id, worker, outcome)
