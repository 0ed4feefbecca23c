"""Search for Tre e Venticinque: for each card it may play, the deal played out over many deals
consistent with what the seat has seen; the card that scores best on average is played.

Determinized Monte Carlo, as :mod:`clients.search_bot` plays French Tarot: the
:class:`~clients.sdk.tre_sampler.TreSampler` draws the hidden hands and discard uniformly among
those the rules allow (voids shown by play, the rule of the discard); on each draw every legal
card is played and the deal finished by a quick rollout policy (:func:`rollout_card`) through the
engine's simulation path (:mod:`arena.games.tre_e_venticinque.simulate`); every card is tried on
the same draws, and the best total for this seat wins (a tie goes to the heuristic's card). The
dealer's discard is the heuristic's (:mod:`clients.tre_heuristic`).

The knobs, the time keeping and the queue of tables (one search at a time:
:mod:`clients.search_turns`) follow the French search bot's rules
(:class:`~clients.search_timing.TimedSearch`): ``samples=N`` plays exactly N draws per decision,
seeded from the bot's seed and what the seat has seen (its seat, the dealer, its hand as dealt,
its discard, the cards played in order), never the table id or the clock, so the same seed plays
the same cards (whenever the machine makes the draws before the request's deadline, which is
kept all the same); without it, the time left until the request's deadline less a margin.
Rollouts use a quick policy on the engine's state rather than the heuristic, which decides about
80 times slower (it reads a whole observation) and would leave under one draw per card at 100 ms.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from arena.games.tre_e_venticinque import PLAYS, Observation, Phase, Play
from arena.games.tre_e_venticinque.cards import (
    ANGELO,
    BAGATTO,
    MATTO,
    MATTO_BIT,
    MONDO,
    STRENGTH,
    THIRDS,
    TRUMP_MASK,
    Card,
    Hand,
    beats,
    cards_of,
)
from arena.games.tre_e_venticinque.game import DealState
from arena.games.tre_e_venticinque.simulate import copy_state, play_unchecked, playable
from clients.sdk import DeadlinePassedError, DecisionRequest, TableView
from clients.sdk.tre_sampler import TreSampler, position
from clients.search_collector import COLLECTOR
from clients.search_timing import TimedSearch
from clients.tre_heuristic import heuristic_choice

GAME = "tre-e-venticinque"


def tre_play(bot: TimedSearch, table: TableView, request: DecisionRequest) -> Any:
    """``bot``'s answer to a Tre e Venticinque request: the heuristic's discard, searched play."""
    view: Observation = table.observation
    if view.phase is not Phase.PLAYING:
        return heuristic_choice(view)
    start = bot.clock()
    cards = [action.card for action in request.legal_actions if isinstance(action, Play)]
    deadline = bot.deadline(table, request, start)
    if len(cards) == 1:
        COLLECTOR.spare(deadline)
        return PLAYS[cards[0]]
    with bot.searching(deadline) as deadline:
        scores = evaluate(bot, view, cards, deadline)
    best = pick(view, cards, scores)
    bot.answered(deadline)
    return PLAYS[best]


def evaluate(
    bot: TimedSearch, view: Observation, cards: Sequence[Card], deadline: float | None
) -> list[list[int]]:
    """This seat's score for each card (in the order of ``cards``), one list per draw."""
    clock = bot.clock
    seat = view.seat
    sampler = TreSampler(view, seed=decision_seed(bot.seed, view),
                         exact_limit=bot.exact_limit(deadline), deadline=deadline, clock=clock)
    template: list[DealState] = []

    def draw(deadline: float | None) -> list[int] | None:
        try:
            sample = sampler.sample()
        except DeadlinePassedError:
            return None
        if not template:
            template.append(sample.state())
        base = position(template[0], sample)
        scores = []
        for card in cards:
            if deadline is not None and clock() > deadline:
                return None
            state = copy_state(base)
            play_unchecked(state, card)
            finish(state)
            assert state.result is not None
            scores.append(state.result.scores[seat])
        return scores

    return bot.run_draws(len(cards), draw, deadline)


def pick(view: Observation, cards: Sequence[Card], scores: list[list[int]]) -> Card:
    """The card with the best total over the draws; the heuristic's among equals (and when no
    draw could be made in time)."""
    prior = heuristic_choice(view)
    prior_card = prior.card if isinstance(prior, Play) else cards[0]
    if not scores:
        return prior_card
    totals = [sum(draw[i] for draw in scores) for i in range(len(cards))]
    best = max(range(len(cards)), key=lambda i: (totals[i], cards[i] == prior_card, -cards[i]))
    return cards[best]


def decision_seed(seed: int, view: Observation) -> int:
    """The same for the same bot seed and the same things seen: never the table id."""
    played = [card for trick in view.tricks for card in trick.cards]
    played.extend(card for _, card in view.current_trick)
    mine = [card for trick in view.tricks for seat, card in trick.played_by()
            if seat == view.seat]
    mine.extend(card for seat, card in view.current_trick if seat == view.seat)
    dealt = sorted((*view.hand, *mine))
    key = (f"tre|{seed}|{view.seat}|{view.dealer}|{dealt}|{sorted(view.discard or ())}|"
           f"{played}")
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")


# -------------------------------------------------------------------------- the rollout
def finish(state: DealState) -> None:
    """Play the deal to its end with :func:`rollout_card` for every seat."""
    while state.to_act is not None:
        play_unchecked(state, rollout_card(state))


def rollout_card(state: DealState) -> Card:
    """A quick, sensible card for the seat to act: last to a trick, take it with the richest
    card that wins; earlier, win with the strongest card when the trick is worth it (or the
    Matto's holder still needs a trick); else give the card worth least, or the Matto instead
    of a card worth a point or more; lead the 20, else a low card."""
    seat = state.to_act
    assert seat is not None
    mask = playable(state)
    if mask & (mask - 1) == 0:
        return mask.bit_length() - 1
    plain = mask & ~MATTO_BIT
    if not plain:
        return MATTO
    trick = state.trick
    best = state._best
    if not trick or best < 0:
        if plain >> ANGELO & 1:
            return ANGELO
        return _cheapest(plain)
    winners = [card for card in cards_of(plain) if beats(card, best)]
    if winners:
        if len(trick) == 2:
            return max(winners, key=_richest)
        needs = state.hands[seat] & MATTO_BIT and not state.tricks_won[seat]
        value = sum(THIRDS[c] for c in trick if c != MATTO)
        if value >= 3 or needs:
            strongest = max(winners, key=_strength)
            if strongest not in (BAGATTO, MONDO) or (strongest == MONDO and _angelo_played(
                    state)):
                return strongest
    losers = plain
    for card in winners:
        losers &= ~(1 << card)
    give = _cheapest(losers or plain)
    if mask & MATTO_BIT and THIRDS[give] >= 3:
        return MATTO
    return give


def _angelo_played(state: DealState) -> bool:
    """Whether the 20, the one trump above the 21, has been played (it is in a pile)."""
    return any(pile >> ANGELO & 1 for pile in state.piles)


def _richest(card: Card) -> tuple[int, int]:
    return THIRDS[card], -STRENGTH[card]


def _strength(card: Card) -> tuple[int, int]:
    return card >= 56, STRENGTH[card]


def _cheapest(mask: Hand) -> Card:
    """The card worth least, suit cards before trumps, the weakest among equals."""
    suits = mask & ~TRUMP_MASK
    pool = suits if suits and any(
        THIRDS[c] == 1 for c in cards_of(suits)) else mask
    return min(cards_of(pool), key=lambda c: (THIRDS[c], c >= 56, STRENGTH[c]))

