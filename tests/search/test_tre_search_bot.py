"""The Tre e Venticinque search bot: legal everywhere, whole deals through the in-process arena
without infraction (as TreSearchBot and as the two-game SearchBot), reproducible with fixed
samples, within its time in time mode, and its rollout policy legal."""

from __future__ import annotations

import dataclasses
import random
import threading
import time

import pytest
import trio

from arena.games.tre_e_venticinque import (
    TRE_E_VENTICINQUE,
    DealState,
    Phase,
    TableOptions,
    apply,
    legal_actions,
)
from arena.games.tre_e_venticinque.simulate import copy_state, play_unchecked, playable
from arena.table import TableOutcome, TimeControl
from clients import tre_search
from clients.local import LocalArena
from clients.sdk import Bot
from clients.search_bot import SearchBot
from clients.tre_bots import TreHeuristicBot, TreSearchBot
from clients.tre_search import evaluate, finish, pick, rollout_card
from tournaments.play.arena import TableToPlay

from .positions import GENEROUS
from .test_search_bot import StepClock
from .threads import at_once
from .tre_positions import tre_position, tre_request, tre_view


def decide(bot: Bot, state: DealState, time_limit: float = GENEROUS, table_id: str = "t") -> object:
    view = tre_view(state, state.to_act or 0)
    request = dataclasses.replace(tre_request(state, time_limit), table_id=table_id)
    return bot.method_for(request)(dataclasses.replace(view, table_id=table_id), request)


def play_table(bots: dict[str, Bot], seats: tuple[str, ...], seed: int, dealer: int,
               per_decision: float = 600.0) -> TableOutcome:
    arena = LocalArena(bots)  # strict: a bot's exception fails the test

    async def run() -> TableOutcome:
        state = TRE_E_VENTICINQUE.new_deal(seed, TableOptions(), dealer)
        return await arena.play(TableToPlay("t", 0, state, seats, TimeControl(per_decision)))

    return trio.run(run)


def test_always_legal_in_random_positions() -> None:
    bot = TreSearchBot(samples=3, seed=2)
    for number in range(60):
        state = tre_position(number, heuristic=number % 2 == 0)
        assert decide(bot, state) in legal_actions(state)


@pytest.mark.parametrize("bot", [TreSearchBot(samples=2, seed=1), SearchBot(samples=2, seed=1)])
def test_whole_deals_through_the_in_process_arena_without_infraction(bot: Bot) -> None:
    assert "tre-e-venticinque" in bot.games
    for dealer in range(3):
        outcome = play_table({"s": bot, "h": TreHeuristicBot()}, ("s", "h", "s"), 40 + dealer,
                             dealer)
        assert outcome.state.phase is Phase.FINISHED
        assert outcome.infractions == []


def test_a_table_replays_identically_with_fixed_samples() -> None:
    def run() -> list[object]:
        bots: dict[str, Bot] = {"s": TreSearchBot(samples=3, seed=4), "h": TreHeuristicBot()}
        return list(play_table(bots, ("h", "s", "h"), 77, 1).state.history)

    assert run() == run()


def test_same_seed_and_samples_same_play_whatever_the_table() -> None:
    for number in range(40):
        state = tre_position(500 + number)
        first = decide(TreSearchBot(samples=5, seed=9), state, table_id="a")
        assert decide(TreSearchBot(samples=5, seed=9), state, table_id="b") == first


def test_the_pick_is_the_best_total_over_the_draws() -> None:
    bot = TreSearchBot(samples=8, seed=3)
    for number in range(30):
        state = tre_position(900 + number)
        cards = [a.card for a in legal_actions(state)]
        if len(cards) < 2:
            continue
        view = tre_view(state, state.to_act or 0).observation
        scores = evaluate(bot, view, cards, None)
        assert len(scores) == 8
        totals = [sum(d[i] for d in scores) for i in range(len(cards))]
        assert totals[cards.index(pick(view, cards, scores))] == max(totals)


def test_time_mode_stays_within_the_limit_and_uses_it() -> None:
    clock = StepClock(0.0002)
    bot = TreSearchBot(seed=1, clock=clock, margin_share=0.1)
    decided = 0
    for number in range(80):
        state = tre_position(700 + number, heuristic=True)
        if len(legal_actions(state)) < 2:
            continue
        before, draws = clock.now, bot.draws
        assert decide(bot, state, time_limit=0.05) in legal_actions(state)
        assert clock.now - before <= 0.05
        assert bot.draws - draws >= 3  # it searched with the time it had
        decided += 1
    assert decided >= 30


def test_the_dealer_discards_as_the_heuristic_does() -> None:
    state = DealState.from_seed(12, 1)
    bot = SearchBot(samples=2)
    while state.phase is Phase.DISCARDING:
        action = decide(bot, state)
        assert action == decide(TreHeuristicBot(), state)
        apply(state, action)  # type: ignore[arg-type]


def test_the_rollout_policy_plays_legal_cards_to_the_end() -> None:
    rng = random.Random(5)
    for number in range(200):
        state = copy_state(tre_position(1_000 + number))
        while state.to_act is not None:
            card = rollout_card(state)
            assert playable(state) >> card & 1
            assert any(a.card == card for a in legal_actions(state))
            play_unchecked(state, card)
            if rng.random() < 0.02:
                finish(state)
        assert state.result is not None and sum(state.result.scores) == 0


def test_a_stale_estimate_of_a_draws_time_does_not_starve_later_decisions() -> None:
    """A stall can leave the per-card estimate above every budget; decisions that cannot afford
    a draw then let it fade, so that the bot searches again instead of playing the heuristic's
    card for the rest of its life."""
    clock = StepClock(0.0002)
    bot = TreSearchBot(seed=1, clock=clock, margin_share=0.1)
    bot.per_card = 1.0  # a draw of one card once took a second
    state = next(s for s in (tre_position(n, heuristic=True) for n in range(100))
                 if len(legal_actions(s)) >= 3)
    for _ in range(60):
        decide(bot, state, time_limit=0.05)
    before = bot.draws
    decide(bot, state, time_limit=0.05)
    assert bot.draws - before >= 3


def test_one_search_at_a_time_across_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables searched at once share the GIL with the SDK's receive loop: they queue."""
    running, most = [0], [0]
    guard = threading.Lock()

    def counted(*args: object) -> list[list[int]]:
        with guard:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.02)
        try:
            return evaluate(*args)  # type: ignore[arg-type]
        finally:
            with guard:
                running[0] -= 1

    monkeypatch.setattr(tre_search, "evaluate", counted)
    bot = TreSearchBot(samples=2, seed=1)
    state = tre_position(3)
    answers = at_once(lambda: decide(bot, state))
    assert len(answers) == 4 and all(a in legal_actions(state) for a in answers)
    assert most[0] == 1 and bot.turns.waiting == 0


def test_the_two_game_bot_queues_both_games_searches_together() -> None:
    """A French Tarot search holds the turn: a Tre e Venticinque decision of the same bot
    waits for it until its own deadline, then plays the heuristic's card without a draw."""
    bot = SearchBot(seed=1, margin_share=0.1)
    assert bot.tre.turns is bot.turns
    state = next(s for s in map(tre_position, range(5, 100)) if len(legal_actions(s)) > 1)

    def hold_the_turn() -> None:
        with bot.turns._searching:
            time.sleep(0.2)

    holder = threading.Thread(target=hold_the_turn)
    holder.start()
    time.sleep(0.01)
    began = time.perf_counter()
    answer = decide(bot, state, time_limit=0.05)
    took = time.perf_counter() - began
    holder.join()
    assert answer in legal_actions(state) and bot.tre.draws == 0
    assert took < 0.1  # it gave up at its deadline (45 ms), not when the turn came (~190 ms)
