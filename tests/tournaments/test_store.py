"""The tournament store on SQLite and PostgreSQL: creation, claims, atomic commits, resume."""

from __future__ import annotations

import json
import random
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import trio
from sqlmodel import Session, select

from arena.games.french_tarot import (
    Bid,
    Contract,
    DealRecord,
    GameState,
    Play,
    TableOptions,
    replay,
)
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import (
    ArenaTable,
    Decision,
    TableSeat,
    TableStatus,
    Tournament,
    TournamentStatus,
)
from arena.table import (
    DecisionRequest,
    PlayerInfo,
    TableOutcome,
    TableRunner,
    TimeControl,
)
from tournaments.cli.export import export_tournament
from tournaments.duplicate.settings import Seating, SettingsError, TournamentSettings
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
    runner = TableRunner(table_id, GameState(claim_deal, options), seats, players,  # type: ignore[arg-type]
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


class FakeClock:
    """Lease time moved by hand."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def test_a_live_claim_is_renewed_and_only_an_expired_one_is_taken_over(db_url: str) -> None:
    clock = FakeClock()
    store = TournamentStore(make_engine(db_url), clock=clock)
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    holder, other = new_worker_id(), new_worker_id()
    claim = store.claim_next(tid, holder, lease=10)
    assert claim is not None
    clock.advance(8)
    assert store.renew({claim.table_id: holder}, lease=10) == []  # alive until 18
    clock.advance(9)  # 17: the first lease ran out, the renewed one did not
    taken = store.claim_next(tid, other, lease=10)
    assert taken is not None and taken.table_id != claim.table_id  # the next table instead
    assert store.open_work(tid).live == 2
    clock.advance(2)  # 19: no renewal came (the holder crashed): anyone may take it
    assert store.open_work(tid).live == 1
    again = store.claim_next(tid, other + "/2", lease=10)
    assert again is not None and again.table_id == claim.table_id and again.attempt == 2
    # the old holder lost it: no renewal, no release, no commit
    assert store.renew({claim.table_id: holder}, lease=10) == [claim.table_id]
    store.release(claim.table_id, holder)
    outcome = play(claim.deal, claim.bots, claim.table_id, 0)
    assert not store.finish(claim.table_id, holder, outcome)
    assert store.finish(again.table_id, other + "/2", outcome)


def test_a_renewal_that_races_the_commit_of_its_own_table_reports_no_loss(
    db_url: str,
) -> None:
    """Renewed just after its own claim finished it, a table is not lost (the arena once said
    a stored result would not be stored); given back or taken over, it is. On a connection
    of the caller's, the renewal commits as it would on the pool's."""
    store = TournamentStore(make_engine(db_url))
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    done, given_back, taken = (store.claim_next(tid, f"w/{n}", lease=10) for n in range(3))
    assert done is not None and given_back is not None and taken is not None
    assert store.finish(done.table_id, "w/0", play(done.deal, done.bots, done.table_id, 0))
    store.release(given_back.table_id, "w/1")
    with store.engine.connect() as connection:
        assert store.renew({done.table_id: "w/0"}, 10, connection) == []
        assert store.renew({given_back.table_id: "w/1"}, 10, connection) == [
            given_back.table_id]
        assert store.renew({taken.table_id: "w/2"}, 30, connection) == []
    assert store.renew({taken.table_id: "someone else"}, 10) == [taken.table_id]
    row = next(t for t, _ in store.tables(tid) if t.id == taken.table_id)
    assert row.lease_until is not None
    assert row.lease_until.replace(tzinfo=UTC) > datetime.now(UTC) + timedelta(seconds=20)


def test_a_claim_is_released_or_finished_only_by_its_own_worker_id(
    store: TournamentStore,
) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    base = new_worker_id()  # two loops of one runner: one id each
    first = store.claim_next(tid, f"{base}/1")
    second = store.claim_next(tid, f"{base}/2")
    assert first is not None and second is not None
    store.release(second.table_id, f"{base}/1")  # the sibling's table: untouched
    assert not store.finish(second.table_id, f"{base}/1",
                            play(second.deal, second.bots, second.table_id, 1))
    with Session(store.engine) as session:
        row = session.get(ArenaTable, second.table_id)
        assert row is not None and row.status == TableStatus.RUNNING
        assert row.claimed_by == f"{base}/2"
    store.release(first.table_id, f"{base}/1")
    assert store.progress(tid).pending == 3


def test_claims_only_tables_whose_bots_can_be_seated(store: TournamentStore) -> None:
    bots = register(store, 5)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=4, seed=3,
                                          seating=Seating.FIELD))
    tables = {t.id: {s.bot_id for s in seats} for t, seats in store.tables(tid)}
    here = set(bots[:4])  # the fifth bot is not connected
    assert store.claim_next(tid, new_worker_id(), seatable=()) is None
    claimed = []
    while (claim := store.claim_next(tid, new_worker_id(), seatable=here)) is not None:
        assert set(claim.bots) <= here
        claimed.append(claim.table_id)
    assert sorted(claimed) == sorted(t for t, seated in tables.items() if seated <= here)
    assert 0 < len(claimed) < len(tables)
    work = store.open_work(tid)
    assert work.claimable == len(tables) - len(claimed) and work.live == len(claimed)
    assert bots[4] in work.bots and not work.finished
    assert store.tournament(tid).status is TournamentStatus.RUNNING


def test_settle_status_never_leaves_running_with_nothing_playing(db_url: str) -> None:
    clock = FakeClock()
    store = TournamentStore(make_engine(db_url), clock=clock)
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    assert store.tournament(tid).status is TournamentStatus.CREATED
    claim = store.claim_next(tid, "w/1", lease=5)
    assert claim is not None
    assert store.settle_status(tid) is TournamentStatus.RUNNING  # a table is being played
    clock.advance(6)  # its arena died: nothing is played anywhere any more
    assert store.settle_status(tid) is TournamentStatus.CREATED
    while (claim := store.claim_next(tid, new_worker_id())) is not None:
        assert store.finish(claim.table_id, claim_worker(store, claim.table_id),
                            play(claim.deal, claim.bots, claim.table_id, 2))
    assert store.settle_status(tid) is TournamentStatus.FINISHED
    assert store.tournament(tid).finished_at is not None


def claim_worker(store: TournamentStore, table_id: str) -> str:
    with Session(store.engine) as session:
        row = session.get(ArenaTable, table_id)
        assert row is not None and row.claimed_by is not None
        return row.claimed_by


def test_finish_is_atomic(store: TournamentStore, monkeypatch: pytest.MonkeyPatch) -> None:
    bots = register(store, 4)
    tid = store.create(TournamentSettings(name="t", bots=tuple(bots), boards=1))
    worker = new_worker_id()
    claim = store.claim_next(tid, worker)
    assert claim is not None
    outcome = play(claim.deal, claim.bots, claim.table_id, 3)

    def broken(self: Session) -> None:
        self.flush()  # the table, its seats and its decisions all written, then the disk fills
        raise RuntimeError("disk full")

    monkeypatch.setattr(Session, "commit", broken)
    with pytest.raises(RuntimeError):
        store.finish(claim.table_id, worker, outcome)
    monkeypatch.undo()
    with Session(store.engine) as session:
        row = session.get(ArenaTable, claim.table_id)
        assert row is not None and row.status == TableStatus.RUNNING and row.record_json is None
        assert session.exec(select(Decision)).all() == []
        assert all(s.score is None for s in session.exec(select(TableSeat)))
    assert store.finish(claim.table_id, worker, outcome)
