"""Competition seating: safe against bots that remember everything they are sent.

- no bot plays a board twice, over many sizes, with the balance of a field;
- table ids say nothing about the board (random, unguessable), other seatings keep theirs;
- a bot's TableEnd carries the outcome and the scores, never the deal (the store keeps it all);
- the seed is secret (random when none is given) until the tournament is finished.

The end-to-end test plays a competition over a real gRPC server against spies: raw protocol
clients that keep every message they receive. None may hold, at any time, a hand of a board
that was not its own, nor see a seed. The same checks run on a rotation tournament find the
leaks the issue describes, which shows they can fail. SDK bots play a competition too, and
get each result without its deal.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import queue
import re
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
import trio
from hypothesis import given
from hypothesis import settings as examples
from hypothesis import strategies as st

from arena.games.french_tarot import DealRecord
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.proto_gen.tarot_arena.v1 import arena_pb2_grpc as pb_grpc
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.table import TableEnd, TableRunner
from arena.transport import convert
from arena.transport.server import ArenaServer
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff, TableView
from tests.claim_order import claimed_in_board_order
from tests.cli.entry import run_entry_point
from tests.table.fakes import FakeSeat, players_of
from tournaments.cli.export import export_tournament
from tournaments.duplicate.seatings import competition, plan_tables
from tournaments.duplicate.settings import Seating, SettingsError, TournamentSettings, seed_for
from tournaments.play.remote import RemoteArena
from tournaments.play.runner import TournamentRunner
from tournaments.store import TournamentStore, new_worker_id

OPAQUE_ID = re.compile(r"^tour_[0-9a-f]+-[0-9a-f]{16}$")


# ------------------------------------------------------------------------------ seating
def sizes() -> Iterator[tuple[int, int, int]]:
    """(bots, players, tables per board): every table size, from the fewest bots allowed."""
    for players in (3, 4, 5):
        for bots in range(2 * players, 4 * players + 2):
            for tables in range(2, bots // players + 1):
                yield bots, players, tables


@pytest.mark.parametrize(("bots", "players", "tables"), list(sizes()))
def test_no_bot_plays_a_board_twice_and_the_schedule_is_balanced(
    bots: int, players: int, tables: int
) -> None:
    names = [f"b{i}" for i in range(bots)]
    boards = 40
    plans = competition(names, players, boards, tables, seed=bots * 100 + tables)
    assert len(plans) == boards * tables
    for board in range(boards):
        of_board = [p for p in plans if p.board == board]
        assert sorted(p.number for p in of_board) == list(range(tables))
        seated = [bot for p in of_board for bot in p.bots]
        assert len(seated) == len(set(seated)) == tables * players, "a bot played a board twice"
        assert all(all(p.scored) for p in of_board)
    plays = Counter(b for p in plans for b in p.bots)
    assert max(plays.values()) - min(plays.values()) <= 1
    seats = Counter((b, s) for p in plans for s, b in enumerate(p.bots))
    for name in names:
        per_seat = [seats[(name, s)] for s in range(players)]
        assert max(per_seat) - min(per_seat) <= 2, (name, per_seat)
    meets = Counter(frozenset(pair) for p in plans for pair in itertools.combinations(p.bots, 2))
    counts = [meets[frozenset(pair)] for pair in itertools.combinations(names, 2)]
    assert min(counts) > 0
    assert max(counts) - min(counts) <= max(4, 0.3 * max(counts)), counts


@examples(max_examples=60, deadline=None)
@given(st.data())
def test_no_bot_plays_a_board_twice_at_any_size(data: st.DataObject) -> None:
    players = data.draw(st.sampled_from([3, 4, 5]))
    bots = data.draw(st.integers(2 * players, 40))
    tables = data.draw(st.integers(2, bots // players))
    seed = data.draw(st.integers(0, 2**64 - 1))
    plans = competition([f"b{i}" for i in range(bots)], players, 5, tables, seed)
    for board in range(5):
        seated = [bot for p in plans if p.board == board for bot in p.bots]
        assert len(seated) == len(set(seated)) == tables * players


def test_competition_is_deterministic_from_the_seed() -> None:
    names = [f"b{i}" for i in range(9)]
    assert competition(names, 4, 10, 2, seed=3) == competition(names, 4, 10, 2, seed=3)
    assert competition(names, 4, 10, 2, seed=3) != competition(names, 4, 10, 2, seed=4)


def test_competition_plays_as_many_tables_as_fit_by_default() -> None:
    settings = TournamentSettings(name="c", bots=tuple(f"b{i}" for i in range(11)),
                                  seating=Seating.COMPETITION, boards=4)
    assert set(Counter(p.board for p in plan_tables(settings)).values()) == {2}  # 11 // 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": tuple("abcdefg")}, r"at least 8 bots \(2 x 4 players.*got 7$"),
        ({"bots": tuple("abcde"), "players": 3}, "at least 6 bots"),
        ({"bots": tuple("abcdefghijk"), "tables_per_board": 3},
         r"tables per board must be 2 with 11 bots .*no bot plays a board twice\), got 3$"),
        ({"bots": tuple("abcdefgh"), "tables_per_board": 1}, r"must be 2 with 8 bots"),
        ({"bots": tuple("abcdefghijkl"), "tables_per_board": 4}, r"must be 2\.\.3 with 12"),
    ],
)
def test_impossible_competitions_are_refused_in_one_line(
    kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(SettingsError, match=message) as caught:
        TournamentSettings(name="c", seating=Seating.COMPETITION, **kwargs)
    assert "\n" not in str(caught.value)
    with pytest.raises(SettingsError, match="no bot plays a board twice"):
        competition(list("abcdefgh"), 4, 1, 3, seed=0)


def test_only_competition_is_safe_and_its_seed_is_random_unless_given() -> None:
    assert [s for s in Seating if s.safe] == [Seating.COMPETITION]
    assert not TournamentSettings(name="c", bots=tuple("abcdefgh"),
                                  seating=Seating.COMPETITION).reveal_deals
    assert TournamentSettings(name="r", bots=tuple("abcd")).reveal_deals
    drawn = {seed_for(Seating.COMPETITION, None) for _ in range(20)}
    assert len(drawn) == 20 and all(0 <= s < 2**64 for s in drawn)
    assert seed_for(Seating.COMPETITION, 5) == 5
    assert {seed_for(s, None) for s in Seating if not s.safe} == {0}


# ------------------------------------------------------------------------------ storage
@pytest.fixture
def store(db_url: str) -> TournamentStore:
    return TournamentStore(make_engine(db_url))


def register(store: TournamentStore, count: int) -> list[str]:
    registry = BotRegistry(store.engine)
    return [registry.register(f"bot-{i}")[0].id for i in range(count)]


def create(store: TournamentStore, bots: list[str], seating: Seating, **kwargs: Any) -> str:
    return store.create(TournamentSettings(name="t", bots=tuple(bots), seating=seating,
                                           **kwargs))


async def play(store: TournamentStore, tid: str, tables: int | None = None) -> None:
    """Play ``tables`` tables (all: None) in claim order, in process, as the runner would."""
    settings = store.settings(tid)
    worker = new_worker_id()
    for _ in itertools.count() if tables is None else range(tables):
        claim = store.claim_next(tid, worker)
        if claim is None:
            return
        seats = [FakeSeat() for _ in claim.bots]
        outcome = await TableRunner(
            claim.table_id, claim.state, seats,
            players_of(len(seats)), reveal=settings.reveal_deals,
        ).run()
        assert store.finish(claim.table_id, worker, outcome)


def test_competition_table_ids_say_nothing_about_the_board(store: TournamentStore) -> None:
    bots = register(store, 8)
    first = create(store, bots, Seating.COMPETITION, boards=12, seed=1)
    again = create(store, bots, Seating.COMPETITION, boards=12, seed=1)
    ids = {t.id: t.board_number for t, _ in store.tables(first)}
    assert len(ids) == 24
    assert all(OPAQUE_ID.match(table_id) for table_id in ids), sorted(ids)
    # Nothing in the random part follows the board: not its number, not the order.
    suffixes = [table_id.rsplit("-", 1)[1] for table_id in sorted(ids, key=ids.__getitem__)]
    assert suffixes != sorted(suffixes)
    assert {table_id.rsplit("-", 1)[0] for table_id in ids} == {first}
    # The same settings again: the same seating, other ids.
    other = {t.id.rsplit("-", 1)[1] for t, _ in store.tables(again)}
    assert other.isdisjoint(s.rsplit("-", 1)[1] for s in ids)
    # Other seatings keep their readable ids.
    rotation = create(store, bots[:4], Seating.ROTATION, boards=2)
    assert [t.id for t, _ in store.tables(rotation)][:2] == [f"{rotation}-b0000-t0",
                                                              f"{rotation}-b0000-t1"]


def claim_order(store: TournamentStore, tid: str) -> list[int]:
    """The board of every table in the order the store hands them out (each claim held, as
    arenas playing side by side hold theirs)."""
    boards = []
    while (claim := store.claim_next(tid, new_worker_id())) is not None:
        boards.append(claim.board)
    return boards


def rank_correlation(values: list[int]) -> float:
    """Spearman's rho between ``values`` and their positions (ties take their mean rank)."""
    ranks: dict[int, float] = {}
    ordered = sorted(values)
    for value in set(values):
        first = ordered.index(value)
        ranks[value] = first + (ordered.count(value) - 1) / 2
    xs = [float(i) for i in range(len(values))]
    ys = [ranks[v] for v in values]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    return cov / math.sqrt(sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys))


def test_a_competition_is_not_played_in_board_order(store: TournamentStore) -> None:
    """A spy saw boards 5, 0, 1, 2, 3... come to it: the order of its tables told it which
    board it held. A competition's tables are claimed in a random order (drawn when it is
    created); other seatings play board after board."""
    bots = register(store, 8)
    tid = create(store, bots, Seating.COMPETITION, boards=40, seed=5)
    order = claim_order(store, tid)
    assert sorted(order) == sorted(t.board_number for t, _ in store.tables(tid))
    # a random order of 80 tables: |rho| > 0.5 is 4.5 standard deviations away
    assert abs(rank_correlation(order)) < 0.5, order
    assert order[:2] != [0, 0]
    rotation = create(store, bots[:4], Seating.ROTATION, boards=5)
    assert claim_order(store, rotation) == [b for b in range(5) for _ in range(4)]


async def test_the_seed_and_unfinished_boards_stay_secret_until_the_end(
    store: TournamentStore, tmp_path: Path
) -> None:
    bots = register(store, 8)
    with claimed_in_board_order():
        tid = create(store, bots, Seating.COMPETITION, boards=3, seed=1234567)
    boards = {b.number: b for b in store.boards(tid)}

    def exported() -> dict[str, Any]:
        paths = export_tournament(store, tid, tmp_path)
        text = paths[0].read_text()
        data: dict[str, Any] = json.loads(text)
        data["text"] = "\n".join(p.read_text() for p in paths)
        with paths[3].open() as handle:  # the decisions: the cards each seat played
            played = {row["table_id"] for row in csv.DictReader(handle)}
        data["boards with decisions"] = {board for t, board in ids.items() if t in played}
        return data

    ids = {t.id: t.board_number for t, _ in store.tables(tid)}

    store.set_status(tid, TournamentStatus.RUNNING)
    await play(store, tid, tables=3)  # board 0 at both its tables, board 1 at one of two
    assert store.sealed(tid) and store.public_seed(tid) is None
    assert store.boards_done(tid) == {0}
    data = exported()
    assert data["tournament"]["seed"] is None and data["tournament"]["settings"]["seed"] is None
    assert [b["number"] for b in data["boards"]] == [0]
    # Sealed as the page is: the tables of boards in play are not even named (a random id
    # tied to its board, or a score of a board in play, would tell a bot which board it holds
    # and how it went), and the standings count the finished boards only.
    assert [(t["board"], t["record"] is not None) for t in data["tables"]] == [(0, True)] * 2
    assert data["boards with decisions"] == {0}
    for table_id, board in ids.items():
        assert (table_id in data["text"]) == (board == 0), (table_id, board)
    assert {row["boards"] for row in data["standings"]} == {1}
    assert {row["comparisons"] for row in data["crosstable"]} <= {1}
    assert "1234567" not in data["text"]
    for number in (1, 2):
        assert boards[number].deal_seed not in data["text"]
        hands = json.loads(boards[number].deal_json)["hands"]
        assert json.dumps(hands[0]) not in data["text"]

    await play(store, tid)
    store.set_status(tid, TournamentStatus.FINISHED)
    assert not store.sealed(tid) and store.public_seed(tid) == "1234567"
    data = exported()
    assert data["tournament"]["seed"] == "1234567"
    assert data["tournament"]["settings"]["seed"] == "1234567"
    assert [b["number"] for b in data["boards"]] == [0, 1, 2]
    assert all(t["record"] is not None for t in data["tables"])
    assert data["boards with decisions"] == {0, 1, 2}
    # Anyone can now re-deal the boards from the seed and check them.
    settings = TournamentSettings.from_json(store.tournament(tid).settings_json)
    for board in data["boards"]:
        assert DealRecord.from_json(board["deal"]).deal == DealRecord.loads(
            boards[board["number"]].deal_json).deal
    assert settings.seed == 1234567


async def test_other_seatings_show_their_seed_while_running(store: TournamentStore) -> None:
    tid = create(store, register(store, 4), Seating.ROTATION, boards=1, seed=77)
    store.set_status(tid, TournamentStatus.RUNNING)
    assert not store.sealed(tid) and store.public_seed(tid) == "77"


# ------------------------------------------------------------------------------ command line
@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, *args: str
) -> Result:
    return Result(*run_entry_point(capsys, monkeypatch, "--db", db, *args))


def test_cli_creates_a_competition_with_a_secret_random_seed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/arena.db"
    store = TournamentStore(make_engine(db))
    bots = register(store, 8)
    created = []
    for _ in range(2):
        result = run_cli(capsys, monkeypatch, db, "tournament", "create", *bots,
                         "--seating", "competition", "--boards", "4")
        assert result.code == 0, result
        assert "seed stays secret" in result.out
        tid = re.search(r"tour_[0-9a-f]+", result.out).group(0)  # type: ignore[union-attr]
        seed = store.tournament(tid).seed
        assert seed not in result.out + result.err
        listed = run_cli(capsys, monkeypatch, db, "tournament", "list")
        assert listed.code == 0 and seed not in listed.out
        created.append(int(seed))
    assert created[0] != created[1]  # drawn at random, not 0
    given = run_cli(capsys, monkeypatch, db, "tournament", "create", *bots, "--seating",
                    "competition", "--seed", "5")
    tid = re.search(r"tour_[0-9a-f]+", given.out).group(0)  # type: ignore[union-attr]
    assert store.tournament(tid).seed == "5"
    rotation = run_cli(capsys, monkeypatch, db, "tournament", "create", *bots[:4])
    tid = re.search(r"tour_[0-9a-f]+", rotation.out).group(0)  # type: ignore[union-attr]
    assert store.tournament(tid).seed == "0"  # unchanged default for testing one's own bots
    refused = run_cli(capsys, monkeypatch, db, "tournament", "create", *bots[:6], "--seating",
                      "competition")
    assert refused.code == 1
    assert refused.err.count("\n") == 1 and "at least 8 bots" in refused.err
    helped = run_cli(capsys, monkeypatch, db, "tournament", "create", "--help")
    assert "competition" in helped.out and "strangers" in " ".join(helped.out.split())


# ------------------------------------------------------------------------------ end to end
class RawSpy:
    """A hostile bot on the real wire: keeps every message it is sent, raw and unbatched, and
    answers each request with its first legal action."""

    def __init__(self, target: str, token: str) -> None:
        self.target = target
        self.token = token
        self.raw: list[bytes] = []
        self.messages: list[pb.ArenaMessage] = []
        self.outbox: queue.Queue[pb.BotMessage | None] = queue.Queue()
        self.call: Any = None
        self.welcomed = threading.Event()
        self.stopped = False

    def run(self) -> None:
        self.outbox.put(pb.BotMessage(hello=pb.Hello(
            token=self.token, bot_name="spy", bot_version="1", protocol_version=1,
            max_tables=8, batching=True,
        )))

        def messages() -> Iterator[pb.BotMessage]:
            while (message := self.outbox.get()) is not None:
                yield message

        with grpc.insecure_channel(self.target) as channel:
            self.call = pb_grpc.BotServiceStub(channel).Connect(messages())
            try:
                for message in self.call:
                    self.raw.append(message.SerializeToString())
                    for part in convert.unbatch(message):
                        self.messages.append(part)
                        if part.WhichOneof("kind") == "welcome":
                            self.welcomed.set()
                        elif part.WhichOneof("kind") == "request":
                            request = part.request
                            self.outbox.put(pb.BotMessage(decision=pb.Decision(
                                table_id=request.table_id, request_id=request.request_id,
                                action=self.choose(request),
                            )))
            except grpc.RpcError:
                if not self.stopped:
                    raise

    def choose(self, request: pb.DecisionRequest) -> pb.Action:
        return request.legal_actions[0]

    def stop(self) -> None:
        self.stopped = True
        self.outbox.put(None)
        if self.call is not None:
            self.call.cancel()


async def play_against_spies(
    db_url: str, seating: Seating, bots: int, boards: int
) -> tuple[TournamentStore, str, dict[str, RawSpy]]:
    store = TournamentStore(make_engine(db_url))
    registry = BotRegistry(store.engine)
    registered = [registry.register(f"spy-{i}") for i in range(bots)]
    tid = store.create(TournamentSettings(
        name="spied", bots=tuple(bot.id for bot, _ in registered), seating=seating,
        boards=boards, seed=987654321, per_decision=10.0,
    ))
    server = ArenaServer(BotRegistry(store.engine))
    spies: dict[str, RawSpy] = {}
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for bot, token in registered:
            spy = spies[bot.id] = RawSpy(f"127.0.0.1:{port}", token)
            nursery.start_soon(trio.to_thread.run_sync, spy.run)
        try:
            with trio.fail_after(120):
                for spy in spies.values():
                    await trio.to_thread.run_sync(spy.welcomed.wait)
                await TournamentRunner(store, RemoteArena(server), tid, concurrency=8,
                                       seat_timeout=30).run()
        finally:
            for spy in spies.values():
                spy.stop()
        nursery.cancel_scope.cancel()
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    return store, tid, spies


def leaks(store: TournamentStore, tid: str, spies: dict[str, RawSpy]) -> list[str]:
    """What the spies learnt that a competition must keep from them."""
    boards = {b.number: b for b in store.boards(tid)}
    deals = {n: DealRecord.loads(b.deal_json).deal for n, b in boards.items()}
    where = {t.id: (t.board_number, [s.bot_id for s in seats]) for t, seats in store.tables(tid)}
    secrets = [store.tournament(tid).seed, *(b.deal_seed for b in boards.values())]
    found: list[str] = []
    for bot, spy in spies.items():
        mine = {t: (board, bots.index(bot)) for t, (board, bots) in where.items() if bot in bots}
        held = {(board, seat) for board, seat in mine.values()}
        for board, count in Counter(board for board, _ in mine.values()).items():
            if count > 1:
                found.append(f"{bot} plays board {board} at {count} tables")
        for table_id, (board, _) in mine.items():
            if re.fullmatch(rf"{tid}-b0*{board}-t\d+", table_id) or not OPAQUE_ID.match(table_id):
                found.append(f"table id {table_id} names board {board}")
        # Every hand and chien of every board, as the sets a spy could recognize.
        hands = {frozenset(deal.hands[s]): (n, s) for n, deal in deals.items()
                 for s in range(deal.players)}
        chiens = {frozenset(deal.chien): n for n, deal in deals.items()}
        known: set[frozenset[int]] = set()
        decided: set[str] = set()
        for message in spy.messages:
            kind = message.WhichOneof("kind")
            shown: list[frozenset[int]] = []
            if kind == "table_start":
                shown.append(frozenset(message.table_start.view.hand))
            elif kind == "table_end":
                end = message.table_end
                if end.hands or end.chien or end.discard or end.record_json:
                    found.append(f"{bot} was shown the deal in the TableEnd of {end.table_id}")
                shown += [frozenset(h.cards) for h in end.hands] + [frozenset(end.chien)]
            elif kind == "request" and message.request.table_id not in decided:
                table_id = message.request.table_id
                decided.add(table_id)
                board, seat = mine[table_id]
                for other in range(deals[board].players):
                    if other != seat and frozenset(deals[board].hands[other]) in known:
                        found.append(f"{bot} held seat {other}'s hand of board {board} at its "
                                     f"first decision at {table_id}")
            for cards in shown:
                if cards in hands and hands[cards] not in held:
                    found.append(f"{bot} was sent the hand of seat {hands[cards][1]} of board "
                                 f"{hands[cards][0]}")
                if cards in chiens:
                    found.append(f"{bot} was sent the chien of board {chiens[cards]}")
            known.update(shown)
        for raw in spy.raw:
            found += [f"{bot} was sent a seed" for secret in secrets if secret.encode() in raw]
    return found


async def test_spies_in_a_competition_learn_nothing_of_any_other_hand(db_url: str) -> None:
    store, tid, spies = await play_against_spies(db_url, Seating.COMPETITION, 8, 4)
    assert store.progress(tid).done == 8
    scores = {t.id: [s.score for s in seats] for t, seats in store.tables(tid)}
    for bot, spy in spies.items():  # every spy played its 4 boards and got each result
        ends = [m.table_end for m in spy.messages if m.WhichOneof("kind") == "table_end"]
        assert len(ends) == 4, bot
        for end in ends:
            assert list(end.scores) == scores[end.table_id]
            assert end.outcome in (pb.PLAYED, pb.ALL_PASSED, pb.PETIT_SEC)
    assert leaks(store, tid, spies) == []
    # The store kept every deal complete, for the export and replays.
    assert all(store.record(t.id).result is not None for t, _ in store.tables(tid))


async def test_the_same_spies_in_rotation_hold_the_other_hands(tmp_path: Path) -> None:
    """The checks above catch what rotation shows a bot (fine for testing one's own bots)."""
    store, tid, spies = await play_against_spies(
        f"sqlite:///{tmp_path}/arena.db", Seating.ROTATION, 4, 4
    )
    found = leaks(store, tid, spies)
    assert any("plays board" in f for f in found)
    assert any("names board" in f for f in found)
    assert any("in the TableEnd" in f for f in found)
    assert any("at its first decision" in f for f in found), found


class RememberingBot(RandomBot):
    """An SDK bot that keeps every TableEnd it is given."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.ends: list[TableEnd] = []

    def on_table_end(self, table: TableView, end: TableEnd) -> None:
        self.ends.append(end)


async def test_sdk_bots_play_a_competition_and_get_results_without_deals(tmp_path: Path) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    registry = BotRegistry(store.engine)
    registered = [registry.register(f"sdk-{i}") for i in range(8)]
    tid = store.create(TournamentSettings(
        name="sdk", bots=tuple(bot.id for bot, _ in registered), seating=Seating.COMPETITION,
        boards=3, per_decision=10.0,
    ))
    server = ArenaServer(BotRegistry(store.engine))
    bots = [RememberingBot(seed=i) for i in range(8)]
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for bot, (_, token) in zip(bots, registered, strict=True):
            client = ArenaClient(bot, f"127.0.0.1:{port}", token, max_tables=4,
                                 backoff=Backoff(0.05, 0.2))
            await nursery.start(client.run)
        with trio.fail_after(120):
            standings = await TournamentRunner(store, RemoteArena(server), tid, concurrency=6).run()
        nursery.cancel_scope.cancel()
    assert len(standings.rows) == 8
    scores = {t.id: tuple(s.score for s in seats) for t, seats in store.tables(tid)}
    for bot in bots:
        assert len(bot.ends) == 3
        for end in bot.ends:
            assert (end.cards, end.record, end.revealed) == (None, None, False)
            assert end.result.scores == scores[end.table_id]
