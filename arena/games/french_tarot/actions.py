"""What a seat can do, in the game's own words, and its one-line text notation.

Every action value is interned: :func:`legal_actions` hands out the same objects each time, so
comparing an answer with the legal list is cheap. Building an equal value by hand works too.

Text notation (records, logs, command lines): ``pass``, ``bid petite|garde|garde-sans|
garde-contre``, ``call KH``, ``discard 3S``, ``chelem`` / ``no-chelem``, ``poignee simple|double|
triple``, ``hide T1``, ``play T21``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from .cards import DECK_SIZE, Card, card_name, parse_card


class Contract(IntEnum):
    """The bids, low to high; the value orders them."""

    PETITE = 1
    GARDE = 2
    GARDE_SANS = 3
    GARDE_CONTRE = 4

    @property
    def multiplier(self) -> int:
        return _MULTIPLIERS[self]

    @property
    def chien_shown(self) -> bool:
        """Petite and Garde: the chien is shown and the taker discards."""
        return self <= Contract.GARDE

    @property
    def label(self) -> str:
        return _CONTRACT_LABELS[self]


_MULTIPLIERS: Final = {
    Contract.PETITE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6,
}
_CONTRACT_LABELS: Final = {
    Contract.PETITE: "petite", Contract.GARDE: "garde",
    Contract.GARDE_SANS: "garde-sans", Contract.GARDE_CONTRE: "garde-contre",
}


class PoigneeLevel(IntEnum):
    """Handful sizes; the value is the bonus in points."""

    SIMPLE = 20
    DOUBLE = 30
    TRIPLE = 40

    @property
    def label(self) -> str:
        return self.name.lower()


POIGNEE_THRESHOLDS: Final = {
    2: {PoigneeLevel.SIMPLE: 13, PoigneeLevel.DOUBLE: 15, PoigneeLevel.TRIPLE: 18},
    3: {PoigneeLevel.SIMPLE: 13, PoigneeLevel.DOUBLE: 15, PoigneeLevel.TRIPLE: 18},
    4: {PoigneeLevel.SIMPLE: 10, PoigneeLevel.DOUBLE: 13, PoigneeLevel.TRIPLE: 15},
    5: {PoigneeLevel.SIMPLE: 8, PoigneeLevel.DOUBLE: 10, PoigneeLevel.TRIPLE: 13},
}
"""Exact number of trumps shown for each level, by player count (two players, with the dummy,
hold 3-player hands of 24 cards and show as three players do)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """Decline to bid."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Bid:
    contract: Contract

    def __str__(self) -> str:
        return f"bid {self.contract.label}"


@dataclass(frozen=True, slots=True)
class CallCard:
    """Five players: the taker calls a King (or, holding all Kings, a Queen, ...)."""

    card: Card

    def __str__(self) -> str:
        return f"call {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Discard:
    """The taker lays one card of the discard face down (one action per card)."""

    card: Card

    def __str__(self) -> str:
        return f"discard {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class ChelemChoice:
    """The taker announces a chelem, or not, before the first trick."""

    announce: bool

    def __str__(self) -> str:
        return "chelem" if self.announce else "no-chelem"


@dataclass(frozen=True, slots=True)
class DeclarePoignee:
    """Show a handful just before one's first card: exactly the level's threshold of trumps.

    A hand with more trumps than that then chooses which to keep hidden with :class:`HideTrump`
    actions; a hand with exactly the threshold (or one trump short, completed by the Excuse) has
    no choice and shows at once (see :func:`arena.games.french_tarot.game.poignee_cards`).
    """

    level: PoigneeLevel

    def __str__(self) -> str:
        return f"poignee {self.level.label}"


@dataclass(frozen=True, slots=True)
class HideTrump:
    """Keep one trump out of the poignée being shown (one action per trump, like the discard).

    Hiding rather than showing one card at a time: a player has to choose only the few trumps
    above the threshold (usually one to three) instead of the ten to eighteen shown, so the
    choice costs a few decisions, each offering at most 21 trumps. The poignée is shown to all
    as soon as the last extra trump is hidden.
    """

    card: Card

    def __str__(self) -> str:
        return f"hide {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Play:
    card: Card

    def __str__(self) -> str:
        return f"play {card_name(self.card)}"


Action = Pass | Bid | CallCard | Discard | ChelemChoice | DeclarePoignee | HideTrump | Play

PASS: Final = Pass()
BIDS: Final = {c: Bid(c) for c in Contract}
CALLS: Final = tuple(CallCard(c) for c in range(DECK_SIZE))
DISCARDS: Final = tuple(Discard(c) for c in range(DECK_SIZE))
PLAYS: Final = tuple(Play(c) for c in range(DECK_SIZE))
HIDES: Final = tuple(HideTrump(c) for c in range(DECK_SIZE))
POIGNEES: Final = {level: DeclarePoignee(level) for level in PoigneeLevel}
ANNOUNCE_CHELEM: Final = ChelemChoice(True)
NO_CHELEM: Final = ChelemChoice(False)

_CONTRACTS_BY_LABEL: Final = {c.label: c for c in Contract}
_LEVELS_BY_LABEL: Final = {level.label: level for level in PoigneeLevel}


def format_action(action: Action) -> str:
    return str(action)


def parse_action(text: str) -> Action:
    """Parse the text notation of the module docstring (case-insensitive)."""
    words = text.strip().lower().split()
    if words == ["pass"]:
        return PASS
    if words == ["chelem"]:
        return ANNOUNCE_CHELEM
    if words == ["no-chelem"]:
        return NO_CHELEM
    if len(words) == 2:
        verb, arg = words
        if verb == "bid" and arg in _CONTRACTS_BY_LABEL:
            return BIDS[_CONTRACTS_BY_LABEL[arg]]
        if verb == "poignee" and arg in _LEVELS_BY_LABEL:
            return POIGNEES[_LEVELS_BY_LABEL[arg]]
        if verb == "call":
            return CALLS[parse_card(arg)]
        if verb == "discard":
            return DISCARDS[parse_card(arg)]
        if verb == "play":
            return PLAYS[parse_card(arg)]
        if verb == "hide":
            return HIDES[parse_card(arg)]
    raise ValueError(
        f"unknown action {text!r}: expected pass, bid petite|garde|garde-sans|garde-contre, "
        "call CARD, discard CARD, chelem, no-chelem, poignee simple|double|triple, hide TRUMP "
        "or play CARD"
    )
