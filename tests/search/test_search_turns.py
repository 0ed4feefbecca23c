"""The queue of a bot's searches shares the time between its tables: a decision that starts
waiting shortens the search in turn, and fixed draws share too (clients/search_turns.py)."""

from __future__ import annotations

import math
import threading

import pytest

from arena.games.french_tarot import legal_actions
from clients.search_bidding import Budget, applying, candidate_scores
from clients.search_timing import TimedSearch
from clients.search_turns import SearchTurns

from .positions import view_of
from .test_search_bot import Recorder, StepClock, decide, search_position


def test_a_decision_that_starts_waiting_shortens_the_search_in_turn() -> None:
    now = [10.0]
    turns = SearchTurns()
    began, release, waited = threading.Event(), threading.Event(), []

    def in_turn() -> None:
        with turns.turn(11.0, clock=lambda: now[0]) as deadline:
            assert deadline == 11.0  # alone: its own deadline
            began.set()
            release.wait(5)

    def waiting() -> None:
        with turns.turn(10.6, clock=lambda: now[0]) as deadline:
            waited.append((deadline, turns.cutoff))

    first = threading.Thread(target=in_turn)
    first.start()
    assert began.wait(5)
    assert turns.until(11.0) == 11.0 and turns.until(None) is None
    second = threading.Thread(target=waiting)
    second.start()
    while turns.waiting == 0:
        threading.Event().wait(0.001)
    # 0.6 s left to the decision waiting, shared by the two: the search in turn ends at 10.3.
    assert turns.cutoff == pytest.approx(10.3)
    assert turns.until(11.0) == pytest.approx(10.3) and turns.until(10.2) == 10.2
    release.set()
    first.join(5)
    second.join(5)
    # The waiting decision's own search is not held to the cutoff it set for the other one.
    assert waited == [(10.6, math.inf)]


def test_a_search_stops_drawing_at_the_cutoff_of_the_decisions_waiting() -> None:
    clock = StepClock(0.001)  # 1 ms a reading: a draw takes 3 readings
    search = TimedSearch(clock=clock)

    def draw(deadline: float | None) -> list[int]:
        clock()
        return [0]

    assert len(search.run_draws(1, draw, 10.0, wanted=50)) == 50
    clock.now = 0.0
    search.turns.cutoff = 0.03
    assert 5 <= len(search.run_draws(1, draw, 10.0, wanted=50)) <= 10


def test_a_simulated_decision_stops_drawing_at_the_cutoff_too() -> None:
    state = search_position()
    assert state.to_act is not None
    view = view_of(state, state.to_act)
    outcomes = [applying(a) for a in legal_actions(state)]
    clock = StepClock(0.0001)
    cut = candidate_scores(view, 1, outcomes, Budget(
        30, clock.now + 100.0, clock, until=lambda deadline: clock.now - 1.0))
    assert cut == []


def test_fixed_draws_share_the_time_left_with_the_decisions_waiting() -> None:
    """On a machine too slow for the draws of every table in turn, a search with fixed draws
    that kept its whole time would leave those waiting none."""
    clock = StepClock(0.0001)
    bot = Recorder(samples=40, seed=1, clock=clock, margin_share=0.1)
    state = search_position()
    bot.turns.waiting = 3
    decide(bot, state, time_limit=0.1)
    assert bot.deadlines[-1] == pytest.approx(0.09 / 4, abs=0.001)
