"""The search bot's decisions before the card play: the sampler in the bidding, the play-out from
any phase (legal by the checked engine), the rules' bid on a full state, the choice against the
rules' prior, the discard candidates, and the bot's bid, call, discard and poignée by simulation
(legal, reproducible, within the time limit)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from arena.games.french_tarot import (
    Bid,
    CallCard,
    Contract,
    DeclarePoignee,
    Discard,
    GameState,
    Pass,
    Phase,
    TableOptions,
    apply,
    legal_actions,
)
from arena.games.french_tarot.cards import (
    FULL_DECK,
    TOTAL_HALF_POINTS,
    cards_of,
    mask_half_points,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES
from arena.games.french_tarot.scoring import settle
from clients import heuristic_bot
from clients.heuristic_bot import HeuristicBot, discard_plan, hand_points, wanted_contract
from clients.local import play_match
from clients.sdk import Sampler
from clients.search_bidding import (
    TAKER_SHIFT,
    Budget,
    applying,
    at_contract,
    bid_candidates,
    bid_scores,
    bolder_contract,
    calibrated_score,
    candidate_scores,
    choose,
    discard_candidates,
    played_score,
    playout,
    rules_bid,
)
from clients.search_bot import BID_SHIFT_BY_PLAYERS, SearchBot
from clients.search_rollout import rules_card

from .positions import random_position, request_of, view_of
from .test_search_bot import StepClock, decide


def positions_in(phases: set[Phase], count: int, first: int = 20_000) -> Iterator[GameState]:
    """States in one of ``phases``, from deals played by random legal actions (the bids drawn
    to take more often than not, so that the later phases come up)."""
    for number in range(count):
        rng = random.Random(first + number)
        players = 3 + number % 3
        state = GameState.from_seed(first + number, TableOptions(players=players),
                                    dealer=number % players)
        found = []
        while state.to_act is not None and state.phase is not Phase.PLAYING:
            if state.phase in phases:
                found.append(state.copy())
            legal = legal_actions(state)
            if state.phase is Phase.BIDDING and len(legal) > 1 and rng.random() < 0.4:
                apply(state, legal[1 + rng.randrange(len(legal) - 1)])
            else:
                apply(state, legal[rng.randrange(len(legal))])
        if Phase.PLAYING in phases and state.phase is Phase.PLAYING:
            found.append(random_position(first + number, players, min_cards=1))
        if found:
            yield found[rng.randrange(len(found))]


def test_the_sampler_draws_whole_deals_in_the_bidding() -> None:
    tested = 0
    for state in positions_in({Phase.BIDDING}, 150):
        seat = state.to_act
        assert seat is not None
        view = view_of(state, seat)
        for sample in Sampler(view, seed=tested).samples(5):
            assert sample.hands[seat] == state.hands[seat]
            assert sample.hidden.bit_count() == CHIEN_SIZES[state.players]
            every = sample.hidden
            for hand in sample.hands:
                assert not every & hand
                every |= hand
            assert every == FULL_DECK
            rebuilt = sample.state()
            assert rebuilt.phase is Phase.BIDDING and rebuilt.to_act == seat
            assert rebuilt.bids == state.bids
            assert legal_actions(rebuilt) == legal_actions(state)
        tested += 1
    assert tested >= 40


def test_a_playout_ends_the_deal_by_legal_actions_from_any_phase() -> None:
    phases = {Phase.BIDDING, Phase.CALLING, Phase.DISCARDING, Phase.CHELEM, Phase.PLAYING}
    tested: set[Phase] = set()
    for state in positions_in(phases, 400):
        tested.add(state.phase)
        played = state.copy()
        known = len(played.history)
        playout(played)
        assert played.phase is Phase.FINISHED and played.result is not None
        # The actions before the card play are recorded: the checked engine takes them all.
        checked = state.copy()
        for seat, action in played.history[known:]:
            apply(checked, action, seat)
        assert checked.phase in (Phase.PLAYING, Phase.FINISHED)
    assert tested == phases


def test_the_rules_bid_on_a_full_state_is_the_heuristics() -> None:
    heuristic = HeuristicBot()
    tested = 0
    for state in positions_in({Phase.BIDDING}, 300, first=30_000):
        assert rules_bid(state) == decide(heuristic, state)  # type: ignore[arg-type]
        tested += 1
    assert tested >= 80


def test_the_rules_bids_counted_once_a_deal_are_the_same_bids() -> None:
    """A bid's play-outs count each seat's hand once a drawn deal (``counted``): the same bids
    as counting it at each turn, whatever was bid before."""
    for number in range(60):
        state = GameState.from_seed(number, TableOptions(players=3 + number % 3))
        first = state.to_act
        assert first is not None
        counted: dict[int, Contract | None] = {}
        while state.phase is Phase.BIDDING:
            seat = state.to_act
            assert seat is not None
            bid = rules_bid(state, counted)
            assert bid == rules_bid(state)
            assert counted[seat] == wanted_contract(cards_of(state.hands[seat]), state.players)
            apply(state, bid)
        counted[first] = Contract.GARDE_CONTRE  # a count is read back, not made again
        again = GameState.from_seed(number, TableOptions(players=3 + number % 3))
        assert rules_bid(again, counted) == Bid(Contract.GARDE_CONTRE)


def test_the_rules_choice_stays_unless_beaten_by_trust_standard_errors() -> None:
    draws = [[0, 10], [0, 30], [0, -10], [0, 20]]  # candidate 1: +12.5, standard error 8.5
    assert choose(draws, prior=0, trust=1.0) == 1
    assert choose(draws, prior=0, trust=2.0) == 0
    assert choose(draws, prior=1, trust=5.0) == 1  # the prior is the best: kept
    assert choose([[0, 50]], prior=0, trust=0.0) == 0  # one draw says nothing
    assert choose([[5, 5, 5], [5, 5, 5]], prior=2, trust=0.0) == 2  # ties go to the prior


def test_discard_candidates_are_whole_legal_discards_the_plan_first() -> None:
    tested = 0
    for state in positions_in({Phase.DISCARDING}, 600, first=40_000):
        taker = state.taker
        assert taker is not None
        legal = {a.card for a in legal_actions(state) if isinstance(a, Discard)}
        hand = sorted(c for c in range(78) if state.hands[taker] >> c & 1)
        count = CHIEN_SIZES[state.players] - state.discard.bit_count()
        found = discard_candidates(hand, legal, count, state.called_card)
        assert list(found[0]) == discard_plan(hand, legal, count, state.called_card)
        assert len({frozenset(c) for c in found}) == len(found)
        for cards in found:
            assert len(set(cards)) == count and set(cards) <= legal
            rest = state.copy()
            for card in cards:
                apply(rest, Discard(card))
            assert rest.phase is not Phase.DISCARDING
        tested += len(found) > 1
    assert tested >= 10


def test_the_bid_is_the_candidate_the_draws_score_best() -> None:
    def bot() -> SearchBot:
        return SearchBot(samples=6, seed=3, simulate=("bid",), decision_trust=0.0,
                         bid_samples=6)

    searching = bot()
    tested = differs = 0
    for state in positions_in({Phase.BIDDING}, 300, first=50_000):
        seat = state.to_act
        assert seat is not None
        request = request_of(state)
        view = view_of(state, seat).with_request(request)
        legal = [a for a in request.legal_actions if isinstance(a, (Pass, Bid))]
        rules = HeuristicBot().bid(view, request)
        bids = bid_candidates(view.hand, state.players, legal, rules, searching.bid_window)
        chosen = searching.bid(view, request)
        assert bot().bid(view, request) == chosen  # reproducible
        if len(bids) < 2:
            assert chosen == rules  # nothing near the hand's count to weigh it against
            continue
        # The same draws, scored again: the bot took the best total unless it tied the rules'.
        seed = searching.simulation_seed("bid", view)
        shift = BID_SHIFT_BY_PLAYERS.get(state.players, 0)
        draws = bid_scores(view, seed, bids, Budget(6, None, searching.clock, policy=rules_card,
                                                     bonus=shift))
        assert bids[choose(draws, bids.index(rules), 0.0)] == chosen
        differs += chosen != rules
        tested += 1
    assert tested >= 40
    assert differs > 0  # the simulation does overrule the rules


def test_the_bids_window_keeps_the_rules_bid_and_the_thresholds_near_the_hand() -> None:
    for state in positions_in({Phase.BIDDING}, 60, first=51_000):
        seat = state.to_act
        assert seat is not None
        hand = cards_of(state.hands[seat])
        legal = [a for a in legal_actions(state) if isinstance(a, (Pass, Bid))]
        rules = rules_bid(state)
        assert bid_candidates(hand, state.players, legal, rules, None) == legal
        near = bid_candidates(hand, state.players, legal, rules, 5.0)
        assert rules in near and set(near) <= set(legal)
        points = hand_points(hand, state.players)
        thresholds = heuristic_bot.BID_THRESHOLDS[state.players]
        for bid in legal:
            level = thresholds[(bid.contract if isinstance(bid, Bid) else 1) - 1]
            assert (bid in near) == (bid == rules or abs(points - level) <= 5.0)


def test_shared_card_play_scores_each_bid_as_its_own_playout() -> None:
    """Sharing a drawn deal's card play between the bids that reach the same start changes no
    score: each bid scores as if played out on its own (the checked path)."""
    tested = 0
    for state in positions_in({Phase.BIDDING}, 40, first=52_000):
        seat = state.to_act
        assert seat is not None
        view = view_of(state, seat)
        bids = [a for a in legal_actions(state) if isinstance(a, (Pass, Bid))]
        for policy in (None, rules_card):
            budget = Budget(3, None, StepClock(0.0001), policy=policy)
            shared = bid_scores(view, 7, bids, budget)
            alone = candidate_scores(view, 7, [applying(a) for a in bids], budget)
            assert shared == alone and len(shared) == 3
            shifted = dataclasses.replace(budget, shift=True)
            assert bid_scores(view, 7, bids, shifted) == candidate_scores(
                view, 7, [applying(a) for a in bids], shifted)
        tested += len(bids) > 2
    assert tested >= 10


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_decision_by_simulation_is_legal_and_reproducible(players: int) -> None:
    def run() -> list[tuple[int, int, float]]:
        every = ("bid", "call", "discard", "poignee")
        bots = [SearchBot(samples=2, seed=s, simulate=every, decision_trust=0.0,
                          bid_samples=2)
                if s < 2 else HeuristicBot() for s in range(players)]
        entries = play_match(bots, 2, seed=10 + players, bot_ids=[f"s{i}" for i in range(players)])
        assert entries and all(e.infractions == 0 for e in entries)
        return [(e.board, e.seat, e.score) for e in entries]

    assert run() == run()


def test_pre_play_decisions_in_time_mode_stay_within_the_limit() -> None:
    clock = StepClock(0.001)
    every = ("bid", "call", "discard", "poignee")
    bot = SearchBot(seed=1, clock=clock, margin_share=0.1, simulate=every)
    phases = {Phase.BIDDING, Phase.CALLING, Phase.DISCARDING}
    decided: set[Phase] = set()
    for state in positions_in(phases, 90, first=60_000):
        before = clock.now
        assert decide(bot, state, time_limit=0.05) in legal_actions(state)
        assert clock.now - before <= 0.05
        decided.add(state.phase)
    assert decided == phases
    assert bot.decision_draws > 0


def test_a_poignee_by_simulation_is_shown_or_not_as_the_draws_say() -> None:
    tested = shown = 0
    for number in range(400):
        state = GameState.from_seed(70_000 + number, TableOptions(players=4))
        while state.phase is not Phase.PLAYING and state.to_act is not None:
            apply(state, legal_actions(state)[-1 if state.phase is Phase.BIDDING else 0])
        if state.to_act is None:
            continue
        if not any(isinstance(a, DeclarePoignee) for a in legal_actions(state)):
            continue
        bot = SearchBot(samples=8, seed=2, simulate=("poignee",), decision_trust=0.0)
        action = decide(bot, state)
        assert action in legal_actions(state)
        assert decide(SearchBot(samples=8, seed=2, simulate=("poignee",),
                                decision_trust=0.0), state) == action
        shown += isinstance(action, DeclarePoignee)
        tested += 1
    assert tested >= 3 and shown >= 1


def test_unknown_decisions_are_refused() -> None:
    with pytest.raises(ValueError, match="simulate takes"):
        SearchBot(simulate=("bidding",))
    with pytest.raises(ValueError, match="decision_samples"):
        SearchBot(decision_samples=0)


def test_the_call_by_simulation_is_a_legal_call() -> None:
    tested = 0
    for state in positions_in({Phase.CALLING}, 600, first=80_000):
        bot = SearchBot(samples=4, seed=1, simulate=("call",), decision_trust=0.0)
        action = decide(bot, state)
        assert isinstance(action, CallCard) and action in legal_actions(state)
        tested += 1
    assert tested >= 5


def test_a_playout_is_scored_with_the_takers_side_shifted_by_the_rollouts_bias() -> None:
    tested = moved = 0
    for state in positions_in({Phase.PLAYING}, 120, first=90_000):
        playout(state)
        result = state.result
        assert result is not None
        if result.summary is None or result.taker is None:
            continue  # everybody passed
        summary = result.summary
        shift = TAKER_SHIFT[state.players]
        shifted = dataclasses.replace(summary, taker_half_points=min(
            TOTAL_HALF_POINTS, summary.taker_half_points + shift))
        for seat in range(state.players):
            expected = settle(shifted, result.taker, result.partner)[seat]
            assert calibrated_score(state, seat) == expected
            if seat == result.taker:
                assert expected >= result.scores[seat]  # the taker's side gains
                moved += expected > result.scores[seat]
        tested += 1
    assert tested >= 40 and moved >= tested - 2
    passed = GameState.from_seed(1, TableOptions(players=4))
    while passed.phase is Phase.BIDDING:
        apply(passed, Pass())
    assert [calibrated_score(passed, s) for s in range(4)] == [0, 0, 0, 0]


def test_a_bid_shift_gives_the_takers_side_that_many_half_points() -> None:
    tested = 0
    for state in positions_in({Phase.PLAYING}, 120, first=90_000):
        playout(state)
        result = state.result
        assert result is not None
        if result.summary is None or result.taker is None:
            continue  # everybody passed
        summary = result.summary
        for bonus in (6, -6):
            shifted = dataclasses.replace(summary, taker_half_points=max(0, min(
                TOTAL_HALF_POINTS, summary.taker_half_points + bonus)))
            expected = [settle(shifted, result.taker, result.partner)[s]
                        for s in range(state.players)]
            assert [played_score(state, s, False, bonus=bonus)
                    for s in range(state.players)] == expected
        tested += 1
    assert tested >= 40


def test_the_bids_shift_for_another_taker_scores_the_play_outs_another_seat_takes() -> None:
    """``others_bonus``: a pass (after which another seat takes, or nobody) is scored with the
    other takers' shift, a Garde Contre (which nobody can overcall) with the bidder's own."""
    tested = moved = 0
    for state in positions_in({Phase.BIDDING}, 60, first=52_000):
        seat = state.to_act
        assert seat is not None
        view = view_of(state, seat)
        bids = [a for a in legal_actions(state) if isinstance(a, (Pass, Bid))]
        if Bid(Contract.GARDE_CONTRE) not in bids:
            continue
        budget = Budget(4, None, StepClock(0.0001), policy=rules_card, bonus=12)
        own = bid_scores(view, 7, bids, budget)
        other = bid_scores(view, 7, bids, dataclasses.replace(budget, bonus=0))
        assert bid_scores(view, 7, bids, dataclasses.replace(budget, others_bonus=12)) == own
        mixed = bid_scores(view, 7, bids, dataclasses.replace(budget, others_bonus=0))
        passing, contre = bids.index(Pass()), bids.index(Bid(Contract.GARDE_CONTRE))
        for row, own_row, other_row in zip(mixed, own, other, strict=True):
            assert row[passing] == other_row[passing]
            assert row[contre] == own_row[contre]
            assert all(v in (a, b) for v, a, b in zip(row, own_row, other_row, strict=True))
            moved += own_row[passing] != other_row[passing]
        tested += 1
    assert tested >= 10 and moved > 0


def test_whole_deals_with_a_bid_shift() -> None:
    bots = [SearchBot(samples=2, bid_samples=4, bid_shift=8),
            *(HeuristicBot() for _ in range(3))]
    entries = play_match(bots, 2, seed=5, bot_ids=["search", "h", "h", "h"])
    assert entries and all(e.infractions == 0 for e in entries)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_bolder_count_is_the_rules_with_lower_thresholds(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(players)
    hands = [rng.sample(range(78), HAND_SIZES[players]) for _ in range(300)]
    for hand in hands:
        assert bolder_contract(hand, players, 0.0) == wanted_contract(hand, players)
    bolder = [bolder_contract(hand, players, 3.0) for hand in hands]
    lowered = {n: tuple(t - 3.0 for t in thresholds)
               for n, thresholds in heuristic_bot.BID_THRESHOLDS.items()}
    monkeypatch.setattr(heuristic_bot, "BID_THRESHOLDS", lowered)
    assert bolder == [wanted_contract(hand, players) for hand in hands]
    assert any(b is not None for b in bolder)


def test_with_five_players_the_default_bot_bids_by_simulation_with_its_shift() -> None:
    """With 5 players the bot as it comes (no ``simulate``, no ``bid_shift``) bids by simulation,
    its play-outs scored with :data:`BID_SHIFT_BY_PLAYERS`'s half-points for the taker's side:
    its bid is the best total of the same draws so scored (the rules' bid on a tie)."""
    assert BID_SHIFT_BY_PLAYERS[5] > 0
    tested = differs = 0
    for state in positions_in({Phase.BIDDING}, 240, first=53_000):
        if state.players != 5:
            continue
        seat = state.to_act
        assert seat is not None
        request = request_of(state)
        view = view_of(state, seat).with_request(request)
        bot = SearchBot(samples=6, seed=3, decision_trust=0.0, bid_samples=6)
        legal = [a for a in request.legal_actions if isinstance(a, (Pass, Bid))]
        rules = HeuristicBot().bid(view, request)
        chosen = bot.bid(view, request)
        seed = bot.simulation_seed("bid", view)
        draws = bid_scores(view, seed, legal, Budget(6, None, bot.clock, policy=rules_card,
                                                      bonus=BID_SHIFT_BY_PLAYERS[5]))
        assert legal[choose(draws, legal.index(rules), 0.0)] == chosen
        differs += chosen != rules
        tested += 1
    assert tested >= 30
    assert differs > 0


def test_a_garde_sans_played_out_scores_as_a_garde_contre_on_the_same_card_play() -> None:
    """The bid's play-outs share one card play between a Garde Sans and a Garde Contre: the
    chien's cards and bouts change sides, nothing else (the engine's own scores, each contract
    bid and played out by the checked path)."""
    tested = moved = 0
    for seed in range(40):
        played = {}
        for bid in (Contract.GARDE_SANS, Contract.GARDE_CONTRE):
            state = GameState.from_seed(seed, TableOptions(players=3 + seed % 3))
            apply(state, Bid(bid))
            while state.phase is Phase.BIDDING:
                apply(state, Pass())
            playout(state)
            assert state.result is not None and state.result.summary is not None
            played[bid] = state
        sans, contre = played[Contract.GARDE_SANS], played[Contract.GARDE_CONTRE]
        assert sans.result is not None and contre.result is not None
        assert sans.result.summary is not None
        for seat in range(sans.players):
            assert played_score(sans, seat, False, Contract.GARDE_CONTRE) == (
                contre.result.scores[seat])
            assert played_score(contre, seat, False, Contract.GARDE_SANS) == (
                sans.result.scores[seat])
        moved += mask_half_points(sans.chien) > 0
        tested += 1
    assert tested == 40 and moved >= 30
    summary = sans.result.summary
    with pytest.raises(ValueError):
        at_contract(summary, Contract.GARDE, sans.chien)  # a Garde plays with the chien


def test_a_discard_by_simulation_makes_its_own_number_of_draws() -> None:
    """``discard_samples`` sets the discard's draws apart from the card search's ``samples``
    (in time mode a discard makes several times a card's draws: its play-outs are quick)."""
    tested = 0
    for number in range(12):
        state = GameState.from_seed(81_000 + number, TableOptions(players=4), dealer=number % 4)
        apply(state, Bid(Contract.GARDE))
        while state.phase is Phase.BIDDING:
            apply(state, Pass())
        seat = state.to_act
        assert seat is not None and state.phase is Phase.DISCARDING
        request = request_of(state)
        view = view_of(state, seat).with_request(request)
        legal = {a.card for a in request.legal_actions if isinstance(a, Discard)}
        if len(discard_candidates(view.hand, legal, CHIEN_SIZES[4], None)) < 2:
            continue
        draws = []
        for extra in ({}, {"discard_samples": 7}):
            bot = SearchBot(samples=3, simulate=("discard",), **extra)  # type: ignore[arg-type]
            assert isinstance(bot.discard(view, request), Discard)
            draws.append(bot.decision_draws)
        assert draws == [3, 7]
        tested += 1
    assert tested >= 5


def test_the_bot_bids_with_its_shift_for_another_taker() -> None:
    def bids(**knobs: int) -> list[object]:
        found = []
        for state in positions_in({Phase.BIDDING}, 90, first=53_000):
            if state.players != 4:
                continue
            request = request_of(state)
            assert state.to_act is not None
            view = view_of(state, state.to_act).with_request(request)
            bot = SearchBot(samples=2, bid_samples=8, decision_trust=0.0, **knobs)  # type: ignore[arg-type]
            found.append(bot.bid(view, request))
        return found

    default = bids()
    assert bids(bid_shift_others=BID_SHIFT_BY_PLAYERS[4]) == default
    assert bids(bid_shift_others=80) != default  # another's contract scored 40 points up
