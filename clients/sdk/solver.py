"""An exact solver for the last tricks of a deal whose hands are all known (a drawn deal).

A search bot that samples the hidden hands (:class:`~clients.sdk.Sampler`) ends up with a
perfect-information deal; near the end of it, few cards are left and the deal can be played out
exactly instead of by a rollout policy: the taker's side plays to raise the taker's score, the
defence to lower it (with five players the partner is known in a drawn deal; with the dummy, the
dummy defends). The value is the deal's real score, computed by the engine's own settlement
(card points with the Excuse rule, bouts, petit au bout, chelem, poignées, the contract's
multiplier): every leaf is a finished :class:`~arena.games.french_tarot.GameState` and the
solver reads its ``result``, so no rule is written twice.

Every seat's score is a fixed function of the taker's score once the sides are known (the
defenders share its opposite), so one minimax on the taker's score is the minimax of every seat;
the solver returns the whole score line of the deal it reaches under best play.

What keeps it fast enough (alpha-beta over copies through
:mod:`arena.games.french_tarot.simulate`): cards of one hand that no live card separates and
that carry the same points are played as one (the search tries the lowest); the quick
policy's card is tried first, so the first line already gives a tight bound; the last card
tried at a turn is played on the search's own state, not a copy. Its cost grows steeply with
the cards left (``python -m bench.bots --speed``, 4 players, a loaded machine): about 0.8 ms
from 2 cards a hand, 10 ms from 3 and 50 ms from 4, against 30 to 50 µs for a rollout of the
same cards. The search bot (:class:`~clients.search_bot.SearchBot`, ``solver_cards``) leaves
it off by default: at 3 cards it changed its play on next to no board.
"""

from __future__ import annotations

from collections.abc import Callable

from arena.games.french_tarot import GameState, Phase
from arena.games.french_tarot.cards import EXCUSE, HALF_POINTS, MONDE, PETIT, Card, Hand
from arena.games.french_tarot.simulate import copy_state, play_unchecked, playable, taker_side

DEFAULT_SOLVER_CARDS = 0
"""Cards left per hand from which :class:`~clients.search_bot.SearchBot` solves exactly: none,
as measured (see the module docstring)."""

Policy = Callable[[GameState], Card]


def solve(state: GameState, *, first: Policy | None = None) -> tuple[int, ...]:
    """Every player's score under best play by both sides from ``state``, a drawn deal in its
    playing phase (every hand known, no poignée left to show).

    ``first``: a policy whose card is tried first at each turn (a good guess makes the search
    cut more); it does not change the value.
    """
    _check(state)
    if state.result is not None:
        return state.result.scores
    assert state.taker is not None
    return _search(copy_state(state), -_INF, _INF, state.taker, taker_side(state), first)[1]


def solve_cards(
    state: GameState, cards: list[Card] | tuple[Card, ...], *, first: Policy | None = None
) -> list[tuple[int, ...]]:
    """For each card the seat to act may play (in the order given), every player's score
    under best play after it: the exact value of each choice, not only of the best one."""
    _check(state)
    allowed = playable(state)
    for card in cards:
        if not allowed >> card & 1:
            raise ValueError(f"card {card} cannot be played by seat {state.to_act} here")
    lines = []
    for card in cards:
        child = copy_state(state)
        play_unchecked(child, card)
        lines.append(solve(child, first=first))
    return lines


def cards_left(state: GameState) -> int:
    """The most cards any hand still holds (the solver's cost grows with it)."""
    return max(hand.bit_count() for hand in state.hands)


_INF = 1 << 40


def _check(state: GameState) -> None:
    if state.phase is Phase.FINISHED:
        return
    if state.phase is not Phase.PLAYING or state.taker is None:
        raise ValueError(f"the solver plays the playing phase, not {state.phase.name.lower()}")


def _search(
    state: GameState, alpha: int, beta: int, taker: int, side: int, first: Policy | None
) -> tuple[int, tuple[int, ...]]:
    """Fail-soft alpha-beta on the taker's score; returns it with the whole score line.
    ``state`` is the search's own: its last card is played on it rather than on a copy."""
    seat = state.to_act
    assert seat is not None
    raising = side >> seat & 1
    best_value = -_INF if raising else _INF
    best_line: tuple[int, ...] = ()
    moves = _moves(state, first)
    last = moves[-1]
    for card in moves:
        child = state if card == last else copy_state(state)
        play_unchecked(child, card)
        result = child.result
        if result is not None:
            line = result.scores
            value = line[taker]
        else:
            value, line = _search(child, alpha, beta, taker, side, first)
        if raising:
            if value > best_value:
                best_value, best_line = value, line
                if value > alpha:
                    alpha = value
        elif value < best_value:
            best_value, best_line = value, line
            if value < beta:
                beta = value
        if alpha >= beta:
            break
    return best_value, best_line


def _moves(state: GameState, first: Policy | None) -> list[Card]:
    """The playable cards, one of each run of equivalent ones, the policy's card first.

    Two cards of one hand are equivalent when they are of one suit (or both plain trumps),
    carry the same points, and every card ranked between them is out of play (in a finished
    trick, the chien or the discard): whatever is played, each wins and loses to the same cards.
    The trick being played is not out of play: a card of it between them tells them apart.
    """
    seat = state.to_act
    assert seat is not None
    mask = playable(state)
    live = 0
    for hand in state.hands:
        live |= hand
    for card in state.trick:
        live |= 1 << card
    moves: list[Card] = []
    previous = -1
    bits = mask
    while bits:
        low = bits & -bits
        card = low.bit_length() - 1
        bits ^= low
        if (
            previous >= 0
            and _same_region(previous, card)
            and HALF_POINTS[previous] == HALF_POINTS[card]
            and card not in _SINGLE
            and previous not in _SINGLE
            and not live & _between(previous, card)
        ):
            previous = card  # the run goes on: its lowest card stands for it
            continue
        moves.append(card)
        previous = card
    if first is not None and len(moves) > 1:
        guess = first(state)
        # the guess may be a card its run's lowest stands for: the last move not above it
        index = max(i for i, card in enumerate(moves) if card <= guess)
        if index:
            moves.insert(0, moves.pop(index))
    return moves


_SINGLE = frozenset((EXCUSE, PETIT, MONDE))
"""The bouts: each counts on its own, never played as one with a neighbour."""


def _same_region(a: Card, b: Card) -> bool:
    if a >= 56 or b >= 56:
        return a >= 56 and b >= 56 and a != EXCUSE and b != EXCUSE
    return a // 14 == b // 14


def _between(low: Card, high: Card) -> Hand:
    return ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
