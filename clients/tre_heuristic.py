"""Policies for Tre e Venticinque: a uniform random one and a sensible heuristic one.

Pure functions of a seat's :class:`~arena.games.tre_e_venticinque.Observation` (what the arena
tells the seat, nothing more), so the same code plays in-process (``bench/tre_heuristic.py``
measures it) and, once the arena seats this game, inside a bot. They use the engine's helpers
(card strength, points, the trick's winner) rather than copies of the rules.

The heuristic plays to the seed's scoring, card points in one's own tricks:

- **Discard** (dealer): bank the richest cards it may lay (Queens, Cavaliers, Jacks), from its
  shortest suits, which also brings it closer to trumping.
- **Save the Matto**: a holder that has won no trick would lose it at the last trick, so it
  fights for a first trick; once safe, it plays the Matto instead of giving away a card worth a
  point or more, and never leads it while it has another card.
- **Take the 1 and the 21**: the 1 (five points, the weakest trump) is played only where it
  wins, last to a trick nobody trumped, or when it must be; the 21 only once the 20 is out of
  play or where it wins for sure. The 20 is led early: it cannot lose and it draws the
  others' trumps, the 1 and the 21 among them.
- **Follow the points**: last to play, take the trick when a card wins it and it is worth
  taking, with the card that brings most points; earlier, win only with a card nobody left can
  beat, or the King of the suit led when the next seat has not shown a void in it; when not
  winning, give the card worth least.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from arena.games.tre_e_venticinque import Action, Observation, Phase, trick_winner_index
from arena.games.tre_e_venticinque.cards import (
    ANGELO,
    BAGATTO,
    KING,
    MATTO,
    MONDO,
    STRENGTH,
    THIRDS,
    Card,
    beats,
)


def random_choice(observation: Observation, rng: random.Random) -> Action:
    """A legal action picked uniformly."""
    legal = observation.legal_actions
    if not legal:
        raise ValueError(f"seat {observation.seat} has nothing to decide")
    return legal[int(rng.random() * len(legal))]


def heuristic_choice(observation: Observation) -> Action:
    """The heuristic's action for the seat to act (see the module docstring)."""
    legal = observation.legal_actions
    if not legal:
        raise ValueError(f"seat {observation.seat} has nothing to decide")
    if len(legal) == 1:
        return legal[0]
    by_card = {action.card: action for action in legal}
    if observation.phase is Phase.DISCARDING:
        return by_card[_discard(observation, list(by_card))]
    trick = [card for _, card in observation.current_trick]
    card = _lead(observation, list(by_card)) if not trick else _follow(
        observation, list(by_card), trick
    )
    return by_card[card]


def _suit(card: Card) -> int:
    """0..3 for suit cards, 4 for trumps, 5 for the Matto."""
    return 5 if card == MATTO else 4 if card >= 56 else card // 14


def _discard(observation: Observation, cards: list[Card]) -> Card:
    length = [0] * 6
    for card in observation.hand:
        length[_suit(card)] += 1
    return max(cards, key=lambda c: (THIRDS[c], -length[_suit(c)], -c))


def _unseen(observation: Observation) -> set[Card]:
    """Cards this seat cannot place: not in its hand, not played, not in its own discard."""
    seen = set(observation.hand)
    seen.update(c for trick in observation.tricks for c in trick.cards)
    seen.update(c for _, c in observation.current_trick)
    seen.update(observation.discard or ())
    return set(range(78)) - seen


def _voids(observation: Observation) -> list[set[int]]:
    """By seat, the suits (0..3, 4 for trumps) it has shown it no longer holds."""
    voids: list[set[int]] = [set(), set(), set()]
    tricks = [trick.played_by() for trick in observation.tricks]
    tricks.append(observation.current_trick)
    for played in tricks:
        if not played:
            continue
        asked = _suit(played[0][1])
        asked = 4 if asked == 5 else asked
        for seat, card in played[1:]:
            kind = _suit(card)
            if kind == 5 or kind == asked:
                continue
            voids[seat].add(asked)
            if asked < 4 and kind != 4:
                voids[seat].add(4)
    return voids


def _can_beat(card: Card, unseen: Iterable[Card], void: set[int]) -> bool:
    """Whether a seat with the voids ``void`` may hold an unseen card that beats ``card``."""
    for other in unseen:
        if other == MATTO or not beats(other, card):
            continue
        if _suit(other) not in void:
            return True
    return False


def _sure(
    card: Card, after: list[int], unseen: set[Card], voids: list[set[int]]
) -> bool:
    """``card`` will win the trick whatever the seats still to play (``after``) hold."""
    return not any(_can_beat(card, unseen, voids[seat]) for seat in after)


def _cheapest(cards: Iterable[Card]) -> Card:
    """The card worth least, the weakest among equals (keeping strength for later)."""
    return min(cards, key=lambda c: (THIRDS[c], c >= 56, STRENGTH[c], c))


def _lead(observation: Observation, cards: list[Card]) -> Card:
    seat = observation.seat
    after = [(seat + 1) % 3, (seat + 2) % 3]
    plain = [c for c in cards if c != MATTO]
    if ANGELO in plain:
        return ANGELO  # cannot lose, and draws trumps
    unseen, voids = _unseen(observation), _voids(observation)
    sure = [c for c in plain if _sure(c, after, unseen, voids)]
    if sure:
        return max(sure, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    kings = [c for c in plain if c < 56 and c % 14 == KING]
    kings = [k for k in kings if not any(k // 14 in voids[s] for s in after)]
    if kings:
        return kings[0]
    safe = [c for c in plain if c not in (BAGATTO, MONDO)] or plain
    return _cheapest(safe)


def _follow(observation: Observation, cards: list[Card], trick: list[Card]) -> Card:
    seat = observation.seat
    best = trick[trick_winner_index(trick)] if any(c != MATTO for c in trick) else None
    plain = [c for c in cards if c != MATTO]
    if not plain:
        return MATTO
    last = len(trick) == 2
    after = [] if last else [(seat + 1) % 3]
    value = sum(THIRDS[c] for c in trick if c != MATTO)
    winners = [c for c in plain if best is None or beats(c, best)]
    if winners:
        if last:
            sure = winners
        else:
            unseen, voids = _unseen(observation), _voids(observation)
            sure = [c for c in winners if _sure(c, after, unseen, voids)]
            if not sure:  # a King the next seat must follow, as far as anyone knows
                sure = [c for c in winners if c < 56 and c % 14 == KING
                        and c // 14 not in voids[after[0]]]
        needs_a_trick = MATTO in observation.hand and not observation.tricks_won[seat]
        if sure and (value + max(THIRDS[c] for c in sure) > 3 or needs_a_trick or last):
            return max(sure, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    losers = [c for c in plain if c not in winners] or plain
    give = _cheapest(losers)
    if MATTO in cards and THIRDS[give] >= 3:
        return MATTO
    others = [c for c in losers if c not in (BAGATTO, MONDO)]
    if give in (BAGATTO, MONDO) and others:
        return _cheapest(others)
    return give
