"""A compare's stored tournament: resumed after a crash with the same verdict, and played live
over gRPC by connected bots."""

from __future__ import annotations

import functools

import pytest
import trio

from arena.games.french_tarot import Bid, Pass
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from clients.heuristic_bot import HeuristicBot
from clients.local import LocalSeat, auction_seat, play_local
from clients.random_bot import RandomBot
from clients.sdk import Action, ArenaClient, Backoff, DecisionRequest, TableView
from tournaments.cli.compare import load_local_bot, run_local
from tournaments.duplicate.sprt import Inconclusive, SprtSettings, Status, Units, Verdict
from tournaments.play import compare
from tournaments.play.compare import run_compare
from tournaments.play.imposed import (
    Auction,
    ImposedAuctionError,
    ImposedSeat,
    auction_of_record,
    free_auction,
    stored_auctions,
)
from tournaments.play.remote import RemoteArena
from tournaments.store import TournamentStore

HEURISTIC = "clients.heuristic_bot:HeuristicBot"
NEVER_BIDS = "tests.compare.weaker:NeverBids"


class Crash(Exception):
    pass


def new_compare(url: str, candidate: str, baseline: str, settings: SprtSettings,
                imposed: bool = False) -> tuple[TournamentStore, str, dict[str, object]]:
    store = TournamentStore(make_engine(url))
    config = compare.CompareConfig(True, candidate, baseline, settings, imposed=imposed)
    ids = compare.local_bot_ids(store, candidate, baseline)
    tid = compare.create(store, config, ids, players=4, seed=11, per_decision=60.0)
    bots = {ids[0]: load_local_bot(candidate), ids[1]: load_local_bot(baseline)}
    return store, tid, bots  # type: ignore[return-value]


def test_a_compare_killed_mid_way_resumes_to_the_same_verdict(db_url: str, tmp_path: object
                                                              ) -> None:
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=40, min_boards=10)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/whole.db", HEURISTIC, NEVER_BIDS,
                                   settings)
    whole = trio.run(run_local, store, tid, bots)

    store, tid, bots = new_compare(db_url, HEURISTIC, NEVER_BIDS, settings)
    seen: list[int] = []

    def crash_at_board_6(status: Status) -> None:
        seen.append(status.boards)
        if status.boards == 6:
            raise Crash

    with pytest.raises(Crash):
        trio.run(run_local, store, tid, bots, crash_at_board_6)
    # nothing plays any more: created again, resumable (a table being played is given back)
    assert store.tournament(tid).status is TournamentStatus.CREATED
    _, _, boards = compare.load(store, tid)
    assert boards.test.n == 6  # the boards played before the crash are kept
    resumed = trio.run(run_local, store, tid, bots, lambda s: seen.append(s.boards))
    assert resumed == whole
    # the resumed run starts by showing where it stands; no board is counted twice
    assert seen == [1, 2, 3, 4, 5, 6, *range(6, resumed.boards + 1)]
    assert resumed.verdict is not None
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert store.progress(tid).done == resumed.boards * 5


def test_the_test_counts_boards_in_order_and_only_complete_ones() -> None:
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=40, min_boards=10)
    from tournaments.duplicate.settings import Seating, TournamentSettings

    config = compare.CompareConfig(True, "a:A", "b:B", settings)
    stored = TournamentSettings(name="c", bots=("cand", "base"), seating=Seating.GAUNTLET,
                                boards=40, compare=config.to_json())
    boards = compare.Boards(stored, config)
    from tournaments.duplicate.scoring import Entry

    def table(board: int, number: int, scores: list[int]) -> list[Entry]:
        if number == 4:
            return [Entry(board, s, f"b{board}t4", "base", scores[s]) for s in range(4)]
        return [Entry(board, number, f"b{board}t{number}", "cand", scores[number])]

    for number in range(5):  # board 1 complete first: not counted before board 0
        boards.add(table(1, number, [10, 20, 30, 40] if number < 4 else [0, 0, 0, 0]))
    assert not boards.advance()
    for number in range(4):
        boards.add(table(0, number, [4, 4, 4, 4]))
    assert not boards.advance()  # the control table is missing
    boards.add(table(0, 4, [0, 0, 0, 8]))
    assert boards.advance()
    assert boards.test.values == [(4 + 4 + 4 - 4) / 4, (10 + 20 + 30 + 40) / 4]


async def _live(url: str, candidate_wins: bool) -> tuple[TournamentStore, str, Status]:
    store = TournamentStore(make_engine(url))
    registry = BotRegistry(store.engine)
    heuristic, heuristic_token = registry.register("heuristic")
    rand, rand_token = registry.register("random")
    pair = (heuristic.id, rand.id) if candidate_wins else (rand.id, heuristic.id)
    config = compare.CompareConfig(False, *pair, SprtSettings(0, 0.2, max_boards=60,
                                                               min_boards=10))
    tid = compare.create(store, config, pair, players=4, seed=3, per_decision=5.0)
    server = ArenaServer(registry)
    async with trio.open_nursery() as nursery:
        port = await nursery.start(server.serve)
        for bot, token in ((HeuristicBot(), heuristic_token), (RandomBot(1), rand_token)):
            client = ArenaClient(bot, f"127.0.0.1:{port}", token, max_tables=8,
                                 backoff=Backoff(0.05, 0.2))
            await nursery.start(client.run)
        with trio.fail_after(120):
            status = await run_compare(store, RemoteArena(server), tid, concurrency=6,
                                       seat_timeout=60.0)
        nursery.cancel_scope.cancel()
    return store, tid, status


def test_live_compare_over_grpc_stops_when_decided(tmp_path: object) -> None:
    store, tid, status = trio.run(_live, f"sqlite:///{tmp_path}/live.db", True)
    assert status.verdict is Verdict.ACCEPTED
    assert status.boards == 10
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    progress = store.progress(tid)
    assert progress.running == 0
    assert progress.pending >= (60 - 10 - 2) * 5  # the rest is left unplayed
    # the verdict is the stored boards' verdict
    _, _, boards = compare.load(store, tid)
    assert boards.test.status() == status


def _auctions_by_board(store: TournamentStore, tid: str) -> dict[int, set[Auction]]:
    seen: dict[int, set[Auction]] = {}
    for table, _ in store.tables(tid):
        if table.status.value == "done":
            seen.setdefault(table.board_number, set()).add(
                auction_of_record(store.record(table.id)))
    return seen


def test_imposed_boards_play_the_baselines_auction_at_every_table(tmp_path: object) -> None:
    """A candidate that never bids, told the heuristic baseline's auction: it takes when the
    baseline would, plays its cards like it, and every board comes out even."""
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=12, min_boards=10)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/imposed.db", NEVER_BIDS, HEURISTIC,
                                   settings, imposed=True)
    status = trio.run(run_local, store, tid, bots)
    # Exactly even on every board: nothing tells them apart, which is no verdict.
    assert (status.verdict, status.boards) == (Verdict.INCONCLUSIVE, 10)
    assert status.reason is Inconclusive.NO_DIFFERENCE
    assert set(compare.load(store, tid)[2].test.values) == {0.0}
    assert not compare.load(store, tid)[2].scored_nothing()  # the deals were played
    auctions = _auctions_by_board(store, tid)
    assert len(auctions) == 10
    assert all(len(a) == 1 for a in auctions.values())  # one auction per board
    candidate = store.settings(tid).bots[0]
    bids = 0
    for table, seats in store.tables(tid):
        if table.record_json is None:
            continue  # left unplayed
        record = store.record(table.id)
        mine = {s.seat for s in seats if s.bot_id == candidate}
        bids += sum(isinstance(a, Bid) for seat, a in record.actions if seat in mine)
    assert bids > 0  # the candidate that never bids did, as imposed


def test_a_resumed_imposed_board_keeps_the_auction_its_first_tables_played(
    tmp_path: object
) -> None:
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=12, min_boards=10)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/resume.db", NEVER_BIDS, HEURISTIC,
                                   settings, imposed=True)
    options = store.settings(tid).table_options
    worker = "test:1:x"
    claim = store.claim_next(tid, worker)
    assert claim is not None and claim.board == 0

    async def play_first_table() -> Auction:
        auction = await free_auction(claim.deal, options, auction_seat(HeuristicBot()))
        outcome = await play_local(claim.deal, options, [bots[b] for b in claim.bots],
                                   claim.table_id, bot_ids=claim.bots, strict=False,
                                   auction=auction)
        assert store.finish(claim.table_id, worker, outcome)
        return auction

    first = trio.run(play_first_table)  # then the process "crashes"
    assert any(isinstance(a, Bid) for _, a in first)
    assert stored_auctions(store, tid) == {0: first}
    # Resumed with a baseline that now passes every hand: board 0 keeps the stored auction.
    trio.run(functools.partial(run_local, store, tid, bots,
                               auction_bot=load_local_bot(NEVER_BIDS)))
    auctions = _auctions_by_board(store, tid)
    assert auctions[0] == {first}
    later = [auction for board, played in auctions.items() if board > 0 for auction in played]
    assert later and all(isinstance(a, Pass) for auction in later for _, a in auction)


def test_an_imposed_seat_refuses_an_auction_that_does_not_fit() -> None:
    from arena.games.french_tarot import PASS, Phase
    from arena.table import DecisionRequest

    seat = ImposedSeat(LocalSeat(HeuristicBot()), [(1, PASS)])
    request = DecisionRequest("t", 0, 1, Phase.BIDDING, (PASS,), 1.0, 0.0, ())
    with pytest.raises(ImposedAuctionError, match="seat 1 play pass, but seat 0 is asked"):
        trio.run(seat.ask, request)


def test_a_table_held_by_another_process_is_waited_for_not_skipped(tmp_path: object) -> None:
    """The test counts boards in order: a board whose table another arena holds blocks it, and
    the compare says so rather than deciding without that board."""
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=30, min_boards=10)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/held.db", HEURISTIC, NEVER_BIDS,
                                   settings)
    held = store.claim_next(tid, "elsewhere:1:abc", lease=600)
    assert held is not None and held.board == 0
    with pytest.raises(compare.CompareError, match=r"1 tables of \S+ are claimed by another"):
        trio.run(run_local, store, tid, bots)
    assert compare.load(store, tid)[2].test.n == 0


def test_local_bots_are_registered_once_under_their_specs(tmp_path: object) -> None:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path}/names.db"))
    first = compare.local_bot_ids(store, "my_bots.v2:Bot", "other/odd:Ünïcode")
    assert compare.local_bot_ids(store, "my_bots.v2:Bot", "other/odd:Ünïcode") == first
    names = {b.id: b.name for b in BotRegistry(store.engine).list()}
    assert names[first[0]] == "my_bots.v2 Bot"
    assert names[first[1]] == "other odd n code"
    aa = compare.local_bot_ids(store, "my_bots.v2:Bot", "my_bots.v2:Bot")
    assert aa[0] == first[0] and aa[1] != aa[0]
    assert names.get(aa[1]) is None  # registered just now, as "my_bots.v2 Bot baseline"


def test_a_compare_renews_its_claim_while_a_table_plays(tmp_path: object) -> None:
    """Its lease is short, so a compare killed mid-table is resumable soon after; a slow table
    keeps its claim all the same (nobody else may take it while it plays)."""
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=2, min_boards=2)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/slow.db", HEURISTIC, NEVER_BIDS,
                                   settings)
    taken: list[tuple[str, str | None]] = []

    class Slow(HeuristicBot):
        async def bid(self, table: TableView, request: DecisionRequest) -> Action:
            if not taken:
                await trio.sleep(1.0)  # well past the 0.3 s lease
                claim = await trio.to_thread.run_sync(store.claim_next, tid, "intruder", 10.0)
                taken.append((table.table_id, claim and claim.table_id))
                if claim is not None:
                    await trio.to_thread.run_sync(store.release, claim.table_id, "intruder")
            return super().bid(table, request)

    candidate = next(iter(bots))
    bots[candidate] = Slow()
    trio.run(functools.partial(run_local, store, tid, bots, lease=0.3))
    [(playing, intruder)] = taken
    assert intruder is not None and intruder != playing
