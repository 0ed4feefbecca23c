"""Helpers for the Tre e Venticinque tests: deals built by hand, positions set up directly.

Cards are written in the notation of :mod:`arena.games.tre_e_venticinque.cards` (``KS``,
``10H``, ``CD`` for the Cavalier of coins, ``AH``, ``T1``..``T21``, ``M`` for the Matto).

:func:`make_deal` takes the cards that matter and deals every other card deterministically.
:func:`position` sets up a trick to play with a few cards per hand, for the rules of play: the
engine's state is built as :func:`~arena.games.tre_e_venticinque.apply` would leave it at the
start of a trick, with exactly the hands, tricks won and taken cards a test names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arena.games.tre_e_venticinque import (
    Card,
    Deal,
    DealState,
    Discard,
    Phase,
    Trick,
    apply,
    format_cards,
    legal_actions,
    parse_action,
    parse_cards,
)
from arena.games.tre_e_venticinque.cards import DECK_SIZE, THIRDS, mask_of
from arena.games.tre_e_venticinque.deal import HAND_SIZE, TALON_SIZE


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


def names(card_list: Iterable[Card]) -> str:
    """Card ids back to notation, lowest id first: handy in assertion messages."""
    return format_cards(sorted(card_list))


def thirds(card_list: Iterable[Card]) -> int:
    return sum(THIRDS[c] for c in card_list)


def make_deal(dealer: int = 0, hands: Mapping[int, str] | None = None, talon: str = "") -> Deal:
    """A valid deal holding the given cards where asked; every card not named is dealt, lowest
    card id first, to seat 0, 1, 2 in turn (skipping full hands) and then to the talon."""
    parts: list[list[Card]] = [cards(hands.get(s, "")) if hands else [] for s in range(3)]
    parts.append(cards(talon))
    named = [c for part in parts for c in part]
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice: {names(named)}")
    sizes = [HAND_SIZE] * 3 + [TALON_SIZE]
    free = iter(c for c in range(DECK_SIZE) if c not in set(named))
    turn = 0
    while any(len(p) < size for p, size in zip(parts, sizes, strict=True)):
        if len(parts[turn % 4]) < sizes[turn % 4]:
            parts[turn % 4].append(next(free))
        turn += 1
    return Deal(dealer, tuple(tuple(p) for p in parts[:3]), tuple(parts[3]))


def discard_and_start(state: DealState, discard: str | None = None) -> DealState:
    """The dealer lays ``discard`` (default: its first three legal cards); play begins."""
    laid = cards(discard) if discard else None
    for index in range(TALON_SIZE):
        action = Discard(laid[index]) if laid else legal_actions(state)[0]
        apply(state, action, state.dealer)
    assert state.phase is Phase.PLAYING
    return state


def position(
    hands: Mapping[int, str],
    leader: int,
    *,
    tricks_won: tuple[int, int, int] = (0, 0, 0),
    piles: Mapping[int, str] | None = None,
    trick_index: int = 1,
    dealer: int = 0,
) -> DealState:
    """A state at the start of trick number ``trick_index`` (0-based) led by ``leader``, whose
    seats hold exactly ``hands`` and have won ``tricks_won`` tricks, taking ``piles``.

    The tricks before are stand-ins (only their number matters to the rules); a position is for
    the rules of play, not for scoring a whole deal.
    """
    state = DealState(make_deal(dealer))
    state.hands = [mask(hands.get(s, "")) for s in range(3)]
    state.phase = Phase.PLAYING
    state.discard = 0
    state.tricks = [Trick(0, (), 0)] * trick_index
    state.tricks_won = list(tricks_won)
    state.piles = [mask((piles or {}).get(s, "")) for s in range(3)]
    state.trick_leader = leader
    state.to_act = leader
    return state


def play(state: DealState, *moves: str) -> None:
    """Play ``moves`` (cards, e.g. ``"KS", "2S", "T5"``), each by the seat to act."""
    for move in moves:
        apply(state, parse_action(f"play {move}"))


def legal_cards(state: DealState) -> str:
    """The cards the seat to act may play or discard, in notation, lowest id first."""
    return format_cards(a.card for a in legal_actions(state))
