"""clients.local: SDK bots played in-process through the table runner, and duplicate matches."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest
import trio

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    Contract,
    Deal,
    GameState,
    Phase,
    Play,
    TableOptions,
    seeded_deal,
)
from arena.storage.bots import BotRegistry
from arena.storage.db import make_engine
from arena.storage.models import TournamentStatus
from arena.table import (
    DecisionRequest,
    InfractionKind,
    PlayerInfo,
    TableEnd,
    TableRunner,
    TimeControl,
)
from clients.local import LocalArena, LocalSeat, board_deal, play_local, play_match, play_plans
from clients.random_bot import RandomBot
from clients.sdk import Bot, Event, TableView
from tournaments.duplicate.scoring import compute_standings
from tournaments.duplicate.seatings import board_seed, gauntlet
from tournaments.duplicate.settings import TournamentSettings
from tournaments.play.arena import BotAwayError, TableToPlay
from tournaments.play.imposed import ImposedAuctions
from tournaments.play.runner import BotsMissingError, TournamentRunner
from tournaments.store import TournamentStore


class FirstLegal(Bot):
    """Deterministic: the first bidder takes a Garde, everything else is the first legal action
    (so every table of a board plays exactly the same deal the same way)."""

    threaded = False

    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        garde = Bid(Contract.GARDE)
        return garde if table.seat == table.first_seat and garde in request.legal_actions else PASS

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        for action in request.legal_actions:
            if isinstance(action, Play):
                return action
        return request.legal_actions[0]


class Checking(RandomBot):
    """A RandomBot that checks its view against each request and records the hooks."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.starts = 0
        self.events: list[Event] = []
        self.ends: list[TableEnd] = []
        self.decisions = 0

    def on_table_start(self, table: TableView) -> None:
        self.starts += 1

    def on_event(self, table: TableView, event: Event) -> None:
        self.events.append(event)

    def on_table_end(self, table: TableView, end: TableEnd) -> None:
        self.ends.append(end)
        assert table.phase is Phase.FINISHED

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        self.decisions += 1
        assert table.seat == request.seat
        assert table.phase is request.phase
        assert table.hand == tuple(sorted(request.hand))
        played = table.played_cards()
        assert not set(played) & set(table.hand)
        assert len(played) == len(set(played))
        return super().decide(table, request)


class AsyncFirstLegal(FirstLegal):
    async def decide(self, table: TableView, request: DecisionRequest) -> Action:  # type: ignore[override]
        await trio.sleep(0)
        return super().decide(table, request)


class Texts(FirstLegal):
    """Answers in text notation."""

    def decide(self, table: TableView, request: DecisionRequest) -> str:  # type: ignore[override]
        return str(super().decide(table, request))


class Broken(FirstLegal):
    def play(self, table: TableView, request: DecisionRequest) -> Action:
        raise RuntimeError("oops")


class Illegal(FirstLegal):
    def play(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS


class Slow(FirstLegal):
    def play(self, table: TableView, request: DecisionRequest) -> Action:
        time.sleep(0.05)
        return super().play(table, request)


OPTIONS = TableOptions(players=4)


def deal(seed: int = 3, players: int = 4) -> Deal:
    return seeded_deal(seed, players, dealer=seed % players)


@pytest.mark.parametrize("players", [3, 4, 5])
async def test_random_bots_play_a_whole_deal(players: int) -> None:
    bots = [Checking(seed) for seed in range(players)]
    outcome = await play_local(deal(7, players), TableOptions(players), bots, "t1")
    assert outcome.state.is_over
    assert not outcome.infractions
    assert sum(outcome.result.scores) == 0
    for bot in bots:
        assert bot.starts == 1 and len(bot.ends) == 1
        assert bot.ends[0].result == outcome.result
        assert bot.decisions > 0 and bot.events


async def test_the_view_follows_the_engine_to_the_end() -> None:
    bot = FirstLegal()
    seats = [LocalSeat(bot) for _ in range(4)]
    players = [PlayerInfo(s, "x", "x") for s in range(4)]
    runner = TableRunner("t", GameState(deal(), OPTIONS), seats, players)
    outcome = await runner.run()
    assert outcome.result.contract is Contract.GARDE
    for seat in seats:
        view = seat.view
        assert view is not None
        assert view.phase is Phase.FINISHED and view.hand == ()
        assert view.tricks == tuple(outcome.state.tricks)
        assert seat.end_message is not None
        assert view.next_sequence == runner.next_sequence(view.seat)


async def test_async_and_text_answers_are_accepted() -> None:
    for bot in (AsyncFirstLegal(), Texts()):
        outcome = await play_local(deal(), OPTIONS, [bot] * 4)
        assert not outcome.infractions
        reference = await play_local(deal(), OPTIONS, [FirstLegal()] * 4)
        assert outcome.result.scores == reference.result.scores


async def test_a_failing_bot_stops_the_deal_when_strict() -> None:
    with pytest.raises(RuntimeError, match="oops"):
        await play_local(deal(), OPTIONS, [Broken(), FirstLegal(), FirstLegal(), FirstLegal()])


async def test_a_failing_bot_gets_the_fallback_when_not_strict() -> None:
    bots = [Broken(), FirstLegal(), FirstLegal(), FirstLegal()]
    outcome = await play_local(deal(), OPTIONS, bots, strict=False)
    assert outcome.state.is_over
    kinds = {i.kind for i in outcome.infractions}
    assert kinds == {InfractionKind.MALFORMED_ACTION}
    assert {i.seat for i in outcome.infractions} == {0}
    assert len(outcome.infractions) == 18  # every card of seat 0's hand


async def test_an_illegal_answer_is_an_infraction() -> None:
    outcome = await play_local(deal(), OPTIONS, [Illegal(), FirstLegal(), FirstLegal(),
                                                 FirstLegal()])
    assert {i.kind for i in outcome.infractions} == {InfractionKind.ILLEGAL_ACTION}


async def test_a_slow_plain_method_times_out() -> None:
    bots = [Slow(), FirstLegal(), FirstLegal(), FirstLegal()]
    outcome = await play_local(deal(), OPTIONS, bots, time_control=TimeControl(0.01))
    assert outcome.state.is_over
    assert {i.kind for i in outcome.infractions} == {InfractionKind.TIMEOUT}


def test_boards_are_dealt_as_the_tournament_store_deals_them() -> None:
    for board in range(5):
        assert board_deal(42, board, OPTIONS) == seeded_deal(board_seed(42, board), 4, board % 4)


def test_identical_deterministic_bots_have_zero_datum_everywhere() -> None:
    bots = [FirstLegal() for _ in range(4)]
    entries = play_match(bots, 3, seed=5, bot_ids=["a", "b", "c", "d"])
    assert len(entries) == 3 * 4 * 4  # boards x tables x seats
    groups = Counter((e.board, e.seat) for e in entries)
    assert set(groups.values()) == {4}
    assert {(e.board, e.seat, e.bot_id) for e in entries} == {
        (b, s, bot) for b in range(3) for s in range(4) for bot in "abcd"
    }
    standings = compute_standings(entries)
    assert all(s.datum == 0 for s in standings.scored)
    assert any(e.score for e in entries)  # the Garde was played, not passed out


def test_rotation_seats_each_bot_in_each_seat_and_merges_repeated_ids() -> None:
    bots = [FirstLegal(), RandomBot(1), FirstLegal(), RandomBot(2)]
    seen: list[tuple[int, int, tuple[str, ...]]] = []
    entries = play_match(bots, 2, seed=1, first_board=10,
                         on_table=lambda plan, outcome: seen.append(
                             (plan.board, plan.number, plan.bots)))
    assert [b for b, _, _ in seen] == [10] * 4 + [11] * 4
    assert {e.bot_id for e in entries} == {"FirstLegal", "random"}
    per_group = Counter((e.board, e.seat, e.bot_id) for e in entries)
    assert set(per_group.values()) == {2}  # each id holds each hand twice per board
    rows = {row.bot_id: row for row in compute_standings(entries).rows}
    assert rows["FirstLegal"].per_board.n == 2
    assert abs(rows["FirstLegal"].per_board.mean + rows["random"].per_board.mean) < 1e-9


def test_play_match_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="one bot per seat"):
        play_match([FirstLegal()] * 3, 1, options=OPTIONS)
    with pytest.raises(ValueError, match="one bot id"):
        play_match([FirstLegal()] * 4, 1, bot_ids=["a"])


def test_gauntlet_plans_score_only_the_compared_seats() -> None:
    plans = gauntlet("cand", "ref", 4, 2)
    entries = play_plans(plans, {"cand": RandomBot(3), "ref": FirstLegal()}, seed=2)
    # per board: 4 candidate seats + 4 control seats
    assert len(entries) == 2 * 8
    assert Counter(e.bot_id for e in entries) == {"cand": 8, "ref": 8}
    standings = compute_standings(entries)
    assert {row.bot_id for row in standings.rows} == {"cand", "ref"}


# ------------------------------------------------------------------ the in-process arena
def _stored_rotation(tmp_path: Path, boards: int) -> tuple[TournamentStore, str, list[str]]:
    store = TournamentStore(make_engine(f"sqlite:///{tmp_path}/arena.db"))
    registry = BotRegistry(store.engine)
    ids = [registry.register(f"bot-{i}")[0].id for i in range(4)]
    tid = store.create(TournamentSettings(name="t", bots=tuple(ids), boards=boards, seed=7,
                                          per_decision=60.0))
    return store, tid, ids


async def test_the_tournament_runner_plays_a_stored_tournament_on_the_in_process_arena(
    tmp_path: Path,
) -> None:
    """The runner that plays over gRPC plays here too: every table stored, and the scores are
    those of the simulator on the same boards (same deals, same deterministic bots)."""
    store, tid, ids = _stored_rotation(tmp_path, 2)
    arena = LocalArena({bot_id: FirstLegal() for bot_id in ids})
    standings = await TournamentRunner(store, arena, tid, concurrency=3).run()
    assert store.progress(tid).done == 2 * 4
    assert store.tournament(tid).status is TournamentStatus.FINISHED
    assert {row.bot_id for row in standings.rows} == set(ids)
    stored = sorted((e.board, e.seat, e.score) for e in store.entries(tid))
    simulated = await trio.to_thread.run_sync(lambda: play_match(
        [FirstLegal() for _ in ids], 2, seed=7, bot_ids=ids))
    assert stored == sorted((e.board, e.seat, e.score) for e in simulated)


async def test_a_bot_the_in_process_arena_does_not_hold_is_waited_for_like_a_missing_one(
    tmp_path: Path,
) -> None:
    store, tid, ids = _stored_rotation(tmp_path, 1)
    arena = LocalArena({bot_id: FirstLegal() for bot_id in ids[:3]})
    assert arena.awaiting(ids, "french-tarot") == [ids[3]]
    assert arena.awaiting(ids[:1], "tre-e-venticinque") == ids[:1]  # a game it does not play
    runner = TournamentRunner(store, arena, tid, seat_timeout=0.2, recheck=0.05)
    with trio.fail_after(30), pytest.raises(BotsMissingError, match="1 bot not connected"):
        await runner.run()
    assert store.progress(tid).pending == 4  # nothing lost: resumable
    with pytest.raises(BotAwayError, match=f"no bot {ids[3]} playing french-tarot in this process"):
        await arena.play(TableToPlay("x", 0, GameState(deal(), OPTIONS), tuple(ids),
                                     TimeControl()))


async def test_the_in_process_arena_imposes_each_boards_auction_once() -> None:
    """Two tables of one board, an auction bid once by the baseline (a bot that never bids
    told to take: its Garde is imposed, as the auction's bidder chose)."""
    bidder = FirstLegal()
    asked: list[int] = []

    def seat() -> LocalSeat:
        asked.append(1)
        return LocalSeat(bidder, strict=False)

    never = NeverBids()
    imposed = ImposedAuctions(seat, "first-legal")
    arena = LocalArena({"never": never}, imposed=imposed)
    outcomes = [await arena.play(TableToPlay(f"t{n}", 3, GameState(deal(), OPTIONS),
                                             ("never",) * 4, TimeControl(60.0)))
                for n in range(2)]
    assert len(asked) == 4  # one table of the bidder's copies, for both tables
    assert list(imposed.known) == [3]
    assert any(isinstance(a, Bid) for _, a in imposed.known[3])
    for outcome in outcomes:
        assert tuple(outcome.state.history[:len(imposed.known[3])]) == imposed.known[3]


class NeverBids(FirstLegal):
    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        return PASS
