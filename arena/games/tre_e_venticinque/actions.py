"""What a seat can do in Tre e Venticinque, and its one-line text notation.

Two kinds of action: the dealer lays a card of the discard face down (one action per card, three
in all), and a player plays a card to the trick. Every value is interned (:data:`DISCARDS`,
:data:`PLAYS`), so comparing an answer with the legal list is cheap; an equal value built by hand
works too.

Text notation (records, logs, the wire's ``notation``): ``discard 4C``, ``play T20``, ``play M``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import DECK_SIZE, Card, card_name, parse_card


@dataclass(frozen=True, slots=True)
class Discard:
    """The dealer lays one card of the discard face down (never a King, a trump or the Matto)."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {card_name(self.card)}"


Action = Discard | Play

DISCARDS: Final = tuple(Discard(c) for c in range(DECK_SIZE))
PLAYS: Final = tuple(Play(c) for c in range(DECK_SIZE))


def format_action(action: Action) -> str:
    return str(action)


def parse_action(text: str) -> Action:
    """Parse the text notation of the module docstring (case-insensitive)."""
    words = text.split() if isinstance(text, str) else []
    if len(words) == 2:
        verb, arg = words[0].lower(), words[1]
        if verb == "play":
            return PLAYS[parse_card(arg)]
        if verb == "discard":
            return DISCARDS[parse_card(arg)]
    raise ValueError(f"unknown action {text!r}: expected play CARD or discard CARD")
