"""A compare's stored tournament: resumed after a crash with the same verdict, and played live
over gRPC by connected bots."""

from __future__ import annotations

import pytest
import trio

from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.transport.server import ArenaServer
from clients.heuristic_bot import HeuristicBot
from clients.random_bot import RandomBot
from clients.sdk import ArenaClient, Backoff
from tournaments import compare
from tournaments.sprt import SprtSettings, Status, Units, Verdict
from tournaments.store import TournamentStore

HEURISTIC = "clients.heuristic_bot:HeuristicBot"
NEVER_BIDS = "tests.compare.weaker:NeverBids"


class Crash(Exception):
    pass


def new_compare(url: str, candidate: str, baseline: str, settings: SprtSettings
                ) -> tuple[TournamentStore, str, dict[str, object]]:
    store = TournamentStore(make_engine(url))
    config = compare.CompareConfig(True, candidate, baseline, settings)
    ids = compare.local_bot_ids(store, candidate, baseline)
    tid = compare.create(store, config, ids, players=4, seed=11, per_decision=60.0)
    bots = {ids[0]: compare.load_local_bot(candidate), ids[1]: compare.load_local_bot(baseline)}
    return store, tid, bots  # type: ignore[return-value]


def test_a_compare_killed_mid_way_resumes_to_the_same_verdict(db_url: str, tmp_path: object
                                                              ) -> None:
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=40, min_boards=10)
    store, tid, bots = new_compare(f"sqlite:///{tmp_path}/whole.db", HEURISTIC, NEVER_BIDS,
                                   settings)
    whole = trio.run(compare.run_local, store, tid, bots)

    store, tid, bots = new_compare(db_url, HEURISTIC, NEVER_BIDS, settings)
    seen: list[int] = []

    def crash_at_board_6(status: Status) -> None:
        seen.append(status.boards)
        if status.boards == 6:
            raise Crash

    with pytest.raises(Crash):
        trio.run(compare.run_local, store, tid, bots, crash_at_board_6)
    assert store.tournament(tid).status is TournamentStatus.RUNNING
    _, _, boards = compare.load(store, tid)
    assert boards.test.n == 6  # the boards played before the crash are kept
    resumed = trio.run(compare.run_local, store, tid, bots, lambda s: seen.append(s.boards))
    assert resumed == whole
    # the resumed run starts by showing where it stands; no board is counted twice
    assert seen == [1, 2, 3, 4, 5, 6, *range(6, resumed.boards + 1)]
    assert resumed.verdict is not None
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert store.progress(tid).done == resumed.boards * 5


def test_the_test_counts_boards_in_order_and_only_complete_ones() -> None:
    settings = SprtSettings(0, 10, Units.POINTS, max_boards=40, min_boards=10)
    from tournaments.settings import Seating, TournamentSettings

    config = compare.CompareConfig(True, "a:A", "b:B", settings)
    stored = TournamentSettings(name="c", bots=("cand", "base"), seating=Seating.GAUNTLET,
                                boards=40, compare=config.to_json())
    boards = compare.Boards(stored, config)
    from tournaments.duplicate import Entry

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
            status = await compare.run_live(store, server, tid, concurrency=6,
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
