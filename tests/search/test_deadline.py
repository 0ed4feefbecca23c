"""The search bots keep the request's deadline: with a fixed number of draws too (fewer draws
when the clock passes it), counting from when the request arrived (a request that waited has
less time), and the sampler's exact count stops at it. Fake clocks throughout: a decision's time
is how often it reads the clock, whatever the machine's speed."""

from __future__ import annotations

from arena.games import tre_e_venticinque as tre
from arena.games.french_tarot import Bid, GameState, Pass, Play, TableOptions, legal_actions
from arena.games.french_tarot.cards import cards_of
from clients.sdk import DeadlinePassedError, Sampler
from clients.search_bidding import (
    Budget,
    applying,
    bid_candidates,
    candidate_scores,
    rules_bid,
)
from clients.search_bot import SearchBot
from clients.search_timing import MIN_MARGIN
from clients.tre_bots import TreSearchBot

from .positions import random_position, request_of, view_of
from .test_search_bot import StepClock, search_position
from .test_tre_search_bot import decide as tre_decide
from .tre_positions import tre_position


class JumpClock(StepClock):
    """A :class:`StepClock` that jumps ``jump`` seconds at its ``at``-th reading (a machine that
    stalls, or is too slow for the draws asked)."""

    def __init__(self, step: float, at: int, jump: float) -> None:
        super().__init__(step)
        self.readings = 0
        self.at = at
        self.jump = jump

    def __call__(self) -> float:
        self.readings += 1
        if self.readings == self.at:
            self.now += self.jump
        return super().__call__()


def decide(bot: SearchBot, state: GameState, time_limit: float = 1.0,
           received: float | None = None) -> object:
    request = request_of(state, time_limit)
    view = view_of(state, request.player).with_request(request, received)
    return bot.method_for(request)(view, request)


def test_fixed_draws_stop_at_the_deadline_with_the_draws_done() -> None:
    state = search_position()
    steady = SearchBot(samples=40, seed=3, clock=StepClock(0.0002))
    first = decide(steady, state)
    assert steady.draws == 40  # a fast machine: every draw, the same card every time
    assert decide(SearchBot(samples=40, seed=3, clock=StepClock(0.0002)), state) == first
    clock = JumpClock(0.0002, at=60, jump=10.0)
    slow = SearchBot(samples=40, seed=3, clock=clock)
    before = clock.now
    assert decide(slow, state) in legal_actions(state)
    assert 1 <= slow.draws < 40  # answered with the draws made before the clock jumped
    # It stopped at the jump: one more reading at most to drop the draw under way and answer.
    assert clock.now - before < 10.0 + 200 * 0.0002


def test_fixed_draws_with_no_time_left_answer_the_heuristics_card() -> None:
    state = search_position()
    clock = StepClock(0.0002)
    bot = SearchBot(samples=40, seed=3, clock=clock)
    answer = decide(bot, state, received=clock.now - 1.0)  # its whole second spent waiting
    assert bot.draws == 0 and answer in legal_actions(state)


def test_a_request_that_waited_gets_a_shorter_budget() -> None:
    state = search_position()
    clock = StepClock(0.0002)
    bot = SearchBot(seed=1, clock=clock, margin_share=0.1)
    before = clock.now
    decide(bot, state, time_limit=0.05, received=before)
    spent_fresh = clock.now - before
    assert spent_fresh > 0.03  # the whole limit, less the margin
    before = clock.now
    decide(bot, state, time_limit=0.05, received=before - 0.03)  # 30 ms in the SDK's queue
    assert clock.now - before <= 0.05 - 0.03
    assert bot.overrun <= MIN_MARGIN


def test_tre_fixed_draws_stop_at_the_deadline() -> None:
    state = next(s for s in (tre_position(900 + n, min_cards=48) for n in range(100))
                 if len(tre.legal_actions(s)) >= 3)
    steady = TreSearchBot(samples=12, seed=2, clock=StepClock(0.0002))
    assert tre_decide(steady, state) in tre.legal_actions(state)
    assert steady.draws == 12
    slow = TreSearchBot(samples=12, seed=2, clock=JumpClock(0.0002, at=20, jump=100.0))
    assert tre_decide(slow, state) in tre.legal_actions(state)
    assert 1 <= slow.draws < 12


def big_count_view() -> tuple[GameState, int]:
    """A position whose exact count takes thousands of steps (the start of the card play)."""
    for number in range(200):
        state = random_position(4100 + number, 5)
        seat = state.to_act
        if seat is None or not all(isinstance(a, Play) for a in legal_actions(state)):
            continue
        sampler = Sampler(view_of(state, seat), seed=0)
        if sampler.exact and sampler._visits > 2000:
            return state, seat
    raise AssertionError("no position with a long exact count")


def test_the_samplers_exact_count_stops_at_the_deadline() -> None:
    state, seat = big_count_view()
    view = view_of(state, seat)
    whole = Sampler(view, seed=0, deadline=1e9, clock=StepClock(0.0001))
    assert whole.exact  # time enough: counted exactly, as without a deadline
    clock = StepClock(0.0001)
    cut = Sampler(view, seed=0, deadline=0.001, clock=clock)  # 10 readings of the clock
    assert not cut.exact
    assert cut._visits < whole._visits / 4
    # The fallback draw starts no deal past the deadline, and says so.
    try:
        cut.sample()
    except DeadlinePassedError as exc:
        assert f"seat {seat}" in str(exc)
    else:
        raise AssertionError("a draw past the deadline returned a deal")


def test_a_simulated_decision_stops_at_the_deadline() -> None:
    state = search_position()
    seat = state.to_act
    assert seat is not None
    view = view_of(state, seat)
    outcomes = [applying(a) for a in legal_actions(state)]
    clock = StepClock(0.0001)
    every = candidate_scores(view, 1, outcomes, Budget(30, clock.now + 100.0, clock))
    assert len(every) == 30
    clock = StepClock(0.0001)
    few = candidate_scores(view, 1, outcomes, Budget(30, clock.now + 0.002, clock))
    assert 1 <= len(few) < 30


def bid_position() -> GameState:
    """A 4-player bidding position whose hand weighs more than one bid by simulation."""
    for seed in range(70_000, 70_200):
        state = GameState.from_seed(seed, TableOptions(players=4), dealer=seed % 4)
        seat = state.to_act
        assert seat is not None
        legal = [a for a in legal_actions(state) if isinstance(a, (Pass, Bid))]
        if len(bid_candidates(cards_of(state.hands[seat]), 4, legal, rules_bid(state),
                              None)) >= 3:
            return state
    raise AssertionError("no bidding position with three candidate bids")


def test_a_bid_by_simulation_stops_at_the_deadline_with_the_draws_done() -> None:
    state = bid_position()
    counting = JumpClock(0.0002, at=0, jump=0.0)
    steady = SearchBot(samples=5, seed=3, clock=counting, bid_samples=30)
    first = decide(steady, state)
    assert steady.decision_draws == 30
    clock = JumpClock(0.0002, at=counting.readings // 2, jump=10.0)
    slow = SearchBot(samples=5, seed=3, clock=clock, bid_samples=30)
    before = clock.now
    assert decide(slow, state) in legal_actions(state)
    assert 1 <= slow.decision_draws < 30  # answered with the draws made before the jump
    assert clock.now - before < 10.0 + counting.readings * 0.0002
    late = SearchBot(samples=5, seed=3, clock=StepClock(0.0002), bid_samples=30)
    answer = decide(late, state, received=late.clock.now - 1.0)  # its second spent waiting
    assert late.decision_draws == 0 and answer == rules_bid(state)
    assert first in legal_actions(state)


class HeldCpuClock:
    """The searching thread's CPU clock beside a :class:`JumpClock`: the wall clock less its
    jump once it has happened (the machine held the thread off its CPU for the jump)."""

    def __init__(self, wall: JumpClock) -> None:
        self.wall = wall

    def __call__(self) -> float:
        return self.wall.now - (self.wall.jump if self.wall.readings >= self.wall.at else 0.0)


def test_a_wait_for_the_cpu_in_a_draw_is_kept_in_hand_before_the_next_deadlines() -> None:
    state = search_position()
    wall = JumpClock(0.0002, at=40, jump=0.02)
    bot = SearchBot(seed=3, clock=wall)
    bot.cpu_clock = HeldCpuClock(wall)
    decide(bot, state, time_limit=0.1)
    assert 0.019 < bot.stall < 0.021  # the wait, less its share of one decision's decay
    request = request_of(state, 0.1)
    view = view_of(state, request.player).with_request(request, 5.0)
    margin = 0.15 * 0.1
    assert bot.deadline(view, request, 5.0) == 5.0 + 0.1 - margin - bot.overrun - bot.stall
    kept = bot.stall
    for _ in range(35):
        bot.answered(None)
    assert kept / 2.2 < bot.stall < kept / 1.8  # a load that has gone costs little for long


def test_a_fake_clock_alone_sees_no_wait_for_the_cpu() -> None:
    wall = JumpClock(0.0002, at=40, jump=0.02)
    bot = SearchBot(seed=3, clock=wall)
    decide(bot, search_position(), time_limit=0.1)
    assert bot.stall == 0.0
