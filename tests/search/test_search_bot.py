"""The search bot: legal in every position, the same play for the same seed and samples, within
the time it is given (an injected clock), and its rollout policy legal by the checked engine."""

from __future__ import annotations

import math
import random
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from arena.games.french_tarot import GameState, Phase, Play, apply, legal_actions
from arena.games.french_tarot.cards import EXCUSE, EXCUSE_BIT, PETIT
from arena.games.french_tarot.deal import DUMMY
from arena.games.french_tarot.game import legal_play_mask
from arena.games.french_tarot.simulate import (
    copy_state,
    play_unchecked,
    playable,
    taker_side,
    trick_status,
)
from arena.games.french_tarot.tricks import beating_mask
from arena.table import InfractionKind, Notice
from clients.heuristic_bot import HeuristicBot
from clients.local import play_match
from clients.sdk import Sampler
from clients.search_bot import (
    REPLIES_BY_PLAYERS,
    SearchBot,
    _charge,
    _keeps,
    _master,
    _threats,
    rollout_card,
)
from clients.search_inference import bid_ranges, disagreements
from clients.search_rollout import rules_card
from clients.search_turns import SWITCH_INTERVAL

from .positions import GENEROUS, random_position, request_of, view_of
from .test_solver import endgame
from .threads import at_once


def decide(bot: SearchBot, state: GameState, time_limit: float = GENEROUS) -> object:
    request = request_of(state, time_limit)
    view = view_of(state, request.player).with_request(request)
    return bot.method_for(request)(view, request)


TABLES = {"3-5 players": (3, 4, 5), "2 players": (2,)}


def playing_positions(count: int, players: tuple[int, ...] = (3, 4, 5)) -> Iterator[GameState]:
    for number in range(count):
        state = random_position(7000 + number, players[number % len(players)], min_cards=1)
        if state.phase is Phase.PLAYING:
            yield state


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_always_legal_in_random_positions(players: tuple[int, ...]) -> None:
    bot = SearchBot(samples=3, seed=2, bid_samples=3)
    tested = 0
    for state in playing_positions(240, players):
        assert decide(bot, state) in legal_actions(state)
        tested += 1
    assert tested >= 150


def test_two_players_it_plays_the_dummy_for_the_defender() -> None:
    """Asked for the dummy (the request's seat) by the defender's bot (its player), it plays one
    of the dummy's cards, searching with the defender's score: a draw's scores for the dummy's
    cards are the defender's, the taker's negated (two players score zero-sum)."""
    bot = SearchBot(samples=4, seed=3)
    dummy_turns = 0
    for state in playing_positions(300, (2,)):
        request = request_of(state)
        if request.seat != DUMMY:
            continue
        assert request.player == state.defender
        action = decide(bot, state)
        assert action in legal_actions(state) and isinstance(action, Play)
        assert state.hands[DUMMY] >> action.card & 1
        dummy_turns += 1
    assert dummy_turns >= 30


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_deals_without_infraction(players: int) -> None:
    bots = [SearchBot(samples=2, seed=s, bid_samples=2) for s in range(players)]
    entries = play_match(bots, 2, seed=players, bot_ids=[f"s{i}" for i in range(players)])
    assert entries and all(e.infractions == 0 for e in entries)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 1), (4, 3)])
def test_whole_deals_with_replies_bid_inference_and_boldness(players: int, seed: int) -> None:
    bots = [SearchBot(samples=1, replies=True, bid_tries=3, boldness=3.0, bid_samples=2),
            *(HeuristicBot() for _ in range(players - 1))]
    entries = play_match(bots, 1, seed=seed, bot_ids=["search", *["h"] * (players - 1)])
    assert entries and all(e.infractions == 0 for e in entries)
    assert any(e.score for e in entries)  # a deal played, not passed by all


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 3), (5, 2)])
def test_whole_deals_with_the_rules_rollouts_and_weighted_draws(players: int, seed: int) -> None:
    bots = [SearchBot(samples=2, rollout="rules", decision_rollout="rules", play_weight=0.5,
                      simulate=("call", "discard", "poignee"), bid_samples=2),
            *(HeuristicBot() for _ in range(players - 1))]
    entries = play_match(bots, 1, seed=seed, bot_ids=["search", *["h"] * (players - 1)])
    assert entries and all(e.infractions == 0 for e in entries)


def test_a_draw_weighs_less_for_each_card_seen_that_the_rollout_would_not_play() -> None:
    """The weight of a draw is ``play_weight`` to the number of the other seats' cards seen that
    the rollout policy, on the drawn deal, would have played otherwise; the card played is the
    best weighted total."""
    weighed = 0
    for state in playing_positions(40, (4,)):
        if sum(len(t.cards) for t in state.tricks) + len(state.trick) < 8:
            continue
        request = request_of(state)
        view = view_of(state, request.player).with_request(request)
        cards = [a.card for a in legal_actions(state) if isinstance(a, Play)]
        bot = SearchBot(samples=6, seed=2, play_weight=0.5)
        scores = bot.evaluate(view, cards, None)
        weights = bot.weights
        assert len(weights) == len(scores) == 6
        misses = [math.log(w, 0.5) for w in weights]
        assert all(m >= 0 and abs(m - round(m)) < 1e-9 for m in misses)
        assert any(m >= 1 for m in misses)  # the rollout does not guess a random play
        plain = SearchBot(samples=6, seed=2)
        assert plain.evaluate(view, cards, None) == scores  # the same draws, the same scores
        assert plain.weights == [1.0] * 6
        totals = [sum(w * d[i] for w, d in zip(weights, scores, strict=True))
                  for i in range(len(cards))]
        assert totals[cards.index(bot.pick(view, cards, scores))] == max(totals)
        weighed += 1
    assert weighed >= 5


def test_a_draw_weighs_less_for_each_seat_whose_hand_disagrees_with_its_bid() -> None:
    """With ``bid_weight`` the card search's draws are the sampler's own (the same scores as
    without it), each weighted by ``bid_weight`` to the number of other seats whose drawn dealt
    hand is worth a contract outside what they bid, recounted here on the same draws."""
    weighed = 0
    for state in playing_positions(60, (4, 5)):
        request = request_of(state)
        view = view_of(state, request.player).with_request(request)
        ranges = bid_ranges(view.bids, view.seat)
        cards = [a.card for a in legal_actions(state) if isinstance(a, Play)]
        if not ranges or len(cards) < 2:
            continue
        bot = SearchBot(samples=6, seed=2, bid_weight=0.5)
        scores = bot.evaluate(view, cards, None)
        sampler = Sampler(view, seed=bot.decision_seed(view), exact_limit=bot.exact_limit(None))
        expected = [0.5 ** disagreements(sampler.sample(), ranges) for _ in scores]
        assert bot.weights == expected
        plain = SearchBot(samples=6, seed=2)
        assert plain.evaluate(view, cards, None) == scores
        assert plain.weights == [1.0] * 6
        totals = [sum(w * d[i] for w, d in zip(expected, scores, strict=True))
                  for i in range(len(cards))]
        assert totals[cards.index(bot.pick(view, cards, scores))] == max(totals)
        weighed += any(w < 1 for w in expected)
    assert weighed >= 5


def test_a_decision_picks_with_its_own_search_s_weights_whatever_another_thread_searched() -> None:
    """The SDK runs a table's decision in a thread of its own: another table's search may start
    once this one's turn ends, before it picks (or, waiting past its deadline for its turn, run
    with no draw meanwhile). The pick weighs this search's draws, not the last search's: read
    from the bot's last weights, ``make demo``'s search bot once failed a decision on them."""
    differ = 0
    for state in playing_positions(60):
        request = request_of(state)
        view = view_of(state, request.player).with_request(request)
        cards = [a.card for a in legal_actions(state) if isinstance(a, Play)]
        if len(cards) < 2:
            continue
        bot = SearchBot(samples=6, seed=2, play_weight=0.5)
        scores = bot.evaluate(view, cards, None)
        weights = list(bot.weights)
        alone = bot.pick(view, cards, scores)
        other = threading.Thread(target=bot.evaluate, args=(view, cards, 0.0))  # past: no draw
        other.start()
        other.join()
        assert bot.weights == []  # the bot's last search is the other thread's
        assert bot.pick(view, cards, scores) == alone
        totals = [sum(w * d[i] for w, d in zip(weights, scores, strict=True))
                  for i in range(len(cards))]
        assert totals[cards.index(alone)] == max(totals)
        uniform = [sum(d[i] for d in scores) for i in range(len(cards))]
        differ += uniform[cards.index(alone)] < max(uniform)  # unweighted, another card
    assert differ >= 1


def test_replies_and_bid_inference_keep_the_play_reproducible() -> None:
    for state in playing_positions(15):
        first = decide(SearchBot(samples=3, seed=9, replies=True, bid_tries=3), state)
        assert decide(SearchBot(samples=3, seed=9, replies=True, bid_tries=3), state) == first


def test_replies_as_taker_only_play_as_replies_in_the_takers_seat_and_without_elsewhere() -> None:
    """``replies="taker"``: the taker's card decisions with the heuristic's replies, the others'
    without (the same card as each bot plays, on the same draws)."""
    taking = defending = 0
    for state in playing_positions(60, players=(4,)):
        seat = state.to_act
        assert seat is not None
        chosen = decide(SearchBot(samples=4, seed=9, replies="taker"), state)
        if seat == state.taker:
            assert chosen == decide(SearchBot(samples=4, seed=9, replies=True), state)
            taking += 1
        else:
            assert chosen == decide(SearchBot(samples=4, seed=9), state)
            defending += 1
        bot = SearchBot(samples=4, replies="taker")
        view = view_of(state, seat)
        assert bot.replying(view) == (seat == state.taker)
    assert taking >= 5 and defending >= 5
    with pytest.raises(ValueError):
        SearchBot(replies="defence")


def test_by_default_the_replies_are_the_takers_with_four_players_only() -> None:
    bot = SearchBot(samples=4)
    seen = set()
    for state in playing_positions(90):
        seat = state.to_act
        assert seat is not None
        view = view_of(state, seat)
        expected = state.players == 4 and seat == state.taker
        assert bot.replying(view) == (REPLIES_BY_PLAYERS.get(state.players) == "taker"
                                      and seat == state.taker) == expected
        seen.add((state.players, expected))
    assert (4, True) in seen and (4, False) in seen and (3, False) in seen


def test_same_seed_and_samples_same_play() -> None:
    for state in playing_positions(90):
        first = decide(SearchBot(samples=6, seed=9), state)
        assert decide(SearchBot(samples=6, seed=9), state) == first


@pytest.mark.parametrize("players", [2, 4])
def test_a_match_replays_identically(players: int) -> None:
    def run() -> list[tuple[int, int, float]]:
        bots = [SearchBot(samples=3, seed=4, bid_samples=3),
                *(HeuristicBot() for _ in range(players - 1))]
        entries = play_match(bots, 2, seed=5, bot_ids=["search", *["h"] * (players - 1)])
        return [(e.board, e.seat, e.score) for e in entries]

    assert run() == run()


class StepClock:
    """A clock that moves ``step`` seconds at each reading: a decision's time is how often it
    looks at the clock, whatever the machine's speed."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_time_mode_stays_within_the_limit_and_uses_it() -> None:
    clock = StepClock(0.0002)
    bot = SearchBot(seed=1, clock=clock, margin_share=0.1)
    decided = 0
    for state in playing_positions(120):
        plays = [a for a in legal_actions(state) if isinstance(a, Play)]
        if len(plays) < 2 or len(legal_actions(state)) != len(plays):
            continue
        before, draws = clock.now, bot.draws
        assert decide(bot, state, time_limit=0.05) in legal_actions(state)
        assert clock.now - before <= 0.05
        assert bot.draws - draws >= 5  # it searched with the time it had
        decided += 1
    assert decided >= 40


def test_an_overrun_is_taken_off_the_next_budgets() -> None:
    class JumpClock(StepClock):
        """Jumps 30 ms once, as a stalled machine would, in the middle of a decision."""

        def __call__(self) -> float:
            self.now += 0.03 if self.jump == 5 else self.step
            self.jump += 1
            return self.now

        jump = 0

    clock = JumpClock(0.001)
    bot = SearchBot(seed=1, clock=clock, margin_share=0.1)
    state = next(s for s in playing_positions(200) if len(legal_actions(s)) >= 3 and all(
        isinstance(a, Play) for a in legal_actions(s)))
    decide(bot, state, time_limit=0.02)
    overrun = bot.overrun
    assert overrun > 0
    before = clock.now
    decide(bot, state, time_limit=0.05)
    assert clock.now - before <= 0.05 - overrun + 0.002
    assert bot.overrun < overrun  # held against the next decisions, fading
    for _ in range(20):
        decide(bot, state, time_limit=0.05)
    assert bot.overrun < overrun / 4


def test_a_stale_estimate_of_a_draws_time_does_not_starve_later_decisions() -> None:
    """The French search keeps time as the Tre one does (:class:`TimedSearch`): a per-card
    estimate left above every budget by a stall fades, and the bot searches again instead of
    playing the heuristic's card for the rest of its life."""
    clock = StepClock(0.0002)
    bot = SearchBot(seed=1, clock=clock, margin_share=0.1)
    bot.per_card = 1.0  # a draw of one card once took a second
    state = search_position()
    for _ in range(60):
        decide(bot, state, time_limit=0.05)
    before = bot.draws
    decide(bot, state, time_limit=0.05)
    assert bot.draws - before >= 3


def test_bad_knobs_are_refused() -> None:
    with pytest.raises(ValueError, match="samples"):
        SearchBot(samples=0)
    with pytest.raises(ValueError, match="margin_share"):
        SearchBot(margin_share=1.0)
    with pytest.raises(ValueError, match="solver_cards"):
        SearchBot(solver_cards=-1)
    with pytest.raises(ValueError, match="bid_tries"):
        SearchBot(bid_tries=0)
    with pytest.raises(ValueError, match="bid_samples"):
        SearchBot(bid_samples=0)
    with pytest.raises(ValueError, match="bid_rollout"):
        SearchBot(bid_rollout="heuristic")
    with pytest.raises(ValueError, match="decision_rollout"):
        SearchBot(decision_rollout="heuristic")
    with pytest.raises(ValueError, match="play_weight"):
        SearchBot(play_weight=0.0)
    with pytest.raises(ValueError, match="bid_weight"):
        SearchBot(bid_weight=1.5)
    with pytest.raises(ValueError, match="rollout takes"):
        SearchBot(rollout="heuristic")


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_the_rollout_policy_plays_legal_cards(players: tuple[int, ...]) -> None:
    for number in range(150):
        state = random_position(9000 + number, players[number % len(players)], min_cards=0)
        while state.phase is not Phase.PLAYING and state.to_act is not None:
            apply(state, legal_actions(state)[-1])
        while state.to_act is not None:
            if state.phase is not Phase.PLAYING:
                apply(state, legal_actions(state)[0])
                continue
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            card = rollout_card(state)
            assert Play(card) in plays
            apply(state, Play(card))
        assert state.result is not None


def test_the_rules_rollout_plays_legal_cards_and_saves_the_petit() -> None:
    """:func:`rules_card` in whole deals (3 to 5 players): every card legal, and the Petit, when
    the seat could have played another card, goes only on a trick its side takes."""
    saved = 0
    for number in range(120):
        players = 3 + number % 3
        state = random_position(9500 + number, players, min_cards=0)
        while state.to_act is not None:
            if state.phase is not Phase.PLAYING:
                apply(state, legal_actions(state)[-1])
                continue
            seat = state.to_act
            plays = [a for a in legal_actions(state) if isinstance(a, Play)]
            card = rules_card(state)
            assert Play(card) in plays
            chose = len({a.card for a in plays} - {PETIT, EXCUSE}) > 0
            tricks = len(state.tricks)
            apply(state, Play(card))
            if card == PETIT and chose:
                assert len(state.tricks) > tricks or state.to_act is not None
                while len(state.tricks) == tricks:  # the trick's end, by the same policy
                    apply(state, Play(rules_card(state)))
                side = taker_side(state)
                assert (side >> state.tricks[-1].winner & 1) == (side >> seat & 1)
                saved += 1
        assert state.result is not None
    assert saved >= 5


def trick_winners(state: GameState) -> set[int]:
    """Every seat that can win the trick being played, over all legal continuations of it."""
    tricks = len(state.tricks)
    found: set[int] = set()

    def walk(node: GameState) -> None:
        if len(node.tricks) > tricks:
            found.add(node.tricks[-1].winner)
            return
        mask = playable(node)
        for card in range(78):
            if mask >> card & 1:
                child = copy_state(node)
                play_unchecked(child, card)
                walk(child)

    walk(state)
    return found


def test_the_rollout_policy_keeps_the_tricks_it_means_to_keep() -> None:
    """What it checks on the drawn deal before charging, taking or leading a master card holds:
    its side then wins the trick whatever the seats after it play."""
    charged = taken = led = 0
    states = [random_position(11000 + number, 3 + number % 3, min_cards=1)
              for number in range(400)]
    # two players with the dummy: three seats at the table, one of them the defence's dummy
    states += [s for s in (endgame(12000 + n, 2, 2 + n % 8) for n in range(150)) if s]
    for state in states:
        if state.phase is not Phase.PLAYING or state.to_act is None:
            continue
        seat = state.to_act
        side = taker_side(state)
        mine = side >> seat & 1
        mask = playable(state)
        if mask & (mask - 1) == 0:
            continue
        led_suit, best, position = trick_status(state)
        n = state.seats
        rivals = [state.hands[(seat + k) % n] for k in range(1, n - len(state.trick))
                  if (side >> (seat + k) % n & 1) != mine]
        threats = _threats(rivals, led_suit)
        if state.trick and best >= 0:
            winner = (state.trick_leader + position) % n
            if (side >> winner & 1) == mine and _keeps(best, *threats):
                charged += 1
                assert all(side >> w & 1 == mine for w in trick_winners(state))
                if not (mask & EXCUSE_BIT and state.hands[seat].bit_count() <= 2):
                    assert rollout_card(state) == _charge(mask & ~EXCUSE_BIT)  # it charges
            card = rollout_card(state)
            after = copy_state(state)
            play_unchecked(after, card)
            if after.trick and trick_status(after)[1] == card and _keeps(card, *threats):
                taken += 1
                assert all(side >> w & 1 == mine for w in trick_winners(after))
        elif not state.trick:
            master = _master(state, mask & ~EXCUSE_BIT, seat, side, mine)
            if master is not None:
                led += 1
                assert rollout_card(state) == master
                after = copy_state(state)
                play_unchecked(after, master)
                assert all(side >> w & 1 == mine for w in trick_winners(after))
    assert charged > 5 and taken > 5 and led > 5


def test_keeps_agrees_with_the_rules() -> None:
    """A winning card is kept exactly when no opponent after it has a legal card beating it."""
    rng = random.Random(5)
    for _ in range(20_000):
        best = rng.randrange(77)
        rivals = [rng.getrandbits(78) & rng.getrandbits(78) & rng.getrandbits(78) & ~(1 << best)
                  for _ in range(rng.randrange(1, 4))]
        led = best // 14 if best < 56 else rng.randrange(5)
        beaten = any(legal_play_mask(h, led, best) & beating_mask(h, led, best) for h in rivals)
        assert _keeps(best, *_threats(rivals, led)) == (not beaten)


@pytest.mark.parametrize("players", TABLES.values(), ids=TABLES.keys())
def test_trust_keeps_the_heuristics_card_unless_the_search_is_sure(
    players: tuple[int, ...]
) -> None:
    heuristic = HeuristicBot()
    differs = 0
    for state in playing_positions(120, players):
        plays = [a for a in legal_actions(state) if isinstance(a, Play)]
        if len(plays) < 2 or len(plays) != len(legal_actions(state)):
            continue
        expected = decide(heuristic, state)  # type: ignore[arg-type]
        sure = SearchBot(samples=8, seed=1, trust=1e9)
        chosen = decide(sure, state)
        if chosen != expected:  # only a card better by the same margin on every draw
            assert isinstance(chosen, Play) and isinstance(expected, Play)
            request = request_of(state)
            view = view_of(state, request.player).with_request(request)
            cards = [p.card for p in plays]
            scores = sure.evaluate(view, cards, None)
            gains = {d[cards.index(chosen.card)] - d[cards.index(expected.card)] for d in scores}
            assert len(gains) == 1 and gains.pop() > 0
        differs += decide(SearchBot(samples=8, seed=1), state) != expected
    assert differs > 0  # without trust, the search does overrule it


def test_a_timeout_reported_by_the_arena_widens_the_margin() -> None:
    bot = SearchBot(seed=1, margin_share=0.1)
    notice = Notice("t", 0, 1, InfractionKind.TIMEOUT, "too late")
    bot.on_notice(None, notice)
    assert bot.margin_share == pytest.approx(0.125) and bot.timeouts == 1
    for _ in range(20):
        bot.on_notice(None, notice)
    assert bot.margin_share == 0.5
    bot.on_notice(None, Notice("t", 0, 2, InfractionKind.ILLEGAL_ACTION, "no"))
    assert bot.timeouts == 21


def test_a_widened_margin_decays_back_over_the_next_decisions() -> None:
    """One rare timeout in a long tournament must not cost every later search its time."""
    bot = SearchBot(seed=1, margin_share=0.1)
    bot.on_notice(None, Notice("t", 0, 1, InfractionKind.TIMEOUT, "too late"))
    bot.answered(None)
    assert 0.1 < bot.margin_share < 0.125
    for _ in range(68):
        bot.answered(None)
    assert bot.margin_share == pytest.approx(0.1125, abs=0.0005)  # half the growth, 70 later
    for _ in range(1000):
        bot.answered(None)
    assert bot.margin_share == pytest.approx(0.1, abs=1e-5)


def search_position() -> GameState:
    return next(s for s in playing_positions(200) if len(legal_actions(s)) >= 3 and all(
        isinstance(a, Play) for a in legal_actions(s)))


class Recorder(SearchBot):
    """Records the deadline each search is given, and how many searches run at once."""

    def __init__(self, *args: Any, hold: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.deadlines: list[float | None] = []
        self.running = self.most_at_once = 0
        self.hold = hold
        self.guard = threading.Lock()

    def evaluate(self, table: Any, cards: Any, deadline: float | None) -> list[list[int]]:
        with self.guard:
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
        self.deadlines.append(deadline)
        time.sleep(self.hold)  # as a search would take the time, without the CPU
        scores = super().evaluate(table, cards, deadline)
        with self.guard:
            self.running -= 1
        return scores


def test_a_search_shares_its_time_left_with_the_decisions_waiting() -> None:
    clock = StepClock(0.0001)
    bot = Recorder(seed=1, clock=clock, margin_share=0.1)
    state = search_position()
    decide(bot, state, time_limit=0.1)
    alone = bot.deadlines[-1]
    bot.turns.waiting = 3  # three other tables' decisions waiting for their turn
    clock.now = 0.0
    decide(bot, state, time_limit=0.1)
    shared = bot.deadlines[-1]
    assert alone is not None and shared is not None
    # Alone: the limit less its margin (10 ms); with three waiting: a quarter of what is left.
    assert alone == pytest.approx(0.09, abs=0.001)
    assert shared == pytest.approx(0.09 / 4, abs=0.001)
    assert bot.turns.waiting == 3


def test_one_search_at_a_time_across_threads() -> None:
    bot = Recorder(samples=2, seed=1, hold=0.02)
    state = search_position()
    answers = at_once(lambda: decide(bot, state))
    assert len(answers) == 4 and all(a in legal_actions(state) for a in answers)
    assert bot.most_at_once == 1 and bot.turns.waiting == 0


def test_a_decision_that_waits_past_its_deadline_plays_the_heuristics_card() -> None:
    bot = Recorder(seed=1, margin_share=0.1)
    state = search_position()

    def hold_the_turn() -> None:
        with bot.turns._searching:
            time.sleep(0.2)

    holder = threading.Thread(target=hold_the_turn)
    holder.start()
    time.sleep(0.01)  # the other table's search holds the turn
    began = time.perf_counter()
    draws = bot.draws
    answer = decide(bot, state, time_limit=0.05)
    took = time.perf_counter() - began
    holder.join()
    assert answer in legal_actions(state) and bot.draws == draws  # no draw: no time left
    assert took < 0.1  # it gave up at its deadline (45 ms), not when the turn came (~190 ms)


def test_a_worker_thread_search_shortens_the_switch_interval() -> None:
    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        bot = SearchBot(samples=1, seed=1)
        state = search_position()
        decide(bot, state)  # the main thread (in-process play): the process's setting is kept
        assert sys.getswitchinterval() == pytest.approx(0.005)
        worker = threading.Thread(target=lambda: decide(bot, state))
        worker.start()
        worker.join()
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)
