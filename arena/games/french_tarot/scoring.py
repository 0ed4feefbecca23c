"""Scoring one French Tarot deal, usable on its own as a club's score calculator.

The engine builds a :class:`DealSummary` from a finished deal and calls :func:`score_deal` and
:func:`settle`, so a score computed by hand from a paper sheet and a score computed by the engine
always go through the same code.

Points are counted in half-points (ints) so that 91 card points, targets and rounding are exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Final

from ..frozen import builder
from .actions import Contract, PoigneeLevel
from .cards import TOTAL_HALF_POINTS
from .deal import player_count_error

TARGETS: Final = {0: 56, 1: 51, 2: 41, 3: 36}
"""Points the taker's side needs, by the number of bouts in its cards."""

PETIT_AU_BOUT: Final = 10
BASE: Final = 25
CHELEM_ANNOUNCED_MADE: Final = 400
CHELEM_UNANNOUNCED_MADE: Final = 200
CHELEM_ANNOUNCED_FAILED: Final = -200
DEFENCE_CHELEM: Final = 200


class Side(Enum):
    TAKER = "taker"
    DEFENCE = "defence"


@dataclass(frozen=True, slots=True)
class DealSummary:
    """What a score sheet records about one played deal.

    ``taker_half_points`` are the card points of the taker's side (5 players: taker and partner),
    discard or chien included as the contract says, in half-points (49.5 points -> 99).
    ``petit_au_bout`` is the side that won the Petit in the last trick (or, in a chelem with the
    Excuse played to the last trick, in the second-to-last), if any; ``poignees`` the
    levels shown by anyone (the bonus goes to the winner, whoever showed it); ``chelem`` the side
    that took every trick, if one did. ``players`` 2 is the game with the dummy: scored as for
    three players, the defender paying for both defending hands.
    """

    players: int
    contract: Contract
    taker_half_points: int
    bouts: int
    petit_au_bout: Side | None = None
    poignees: tuple[PoigneeLevel, ...] = ()
    chelem_announced: bool = False
    chelem: Side | None = None
    taker_alone: bool = False

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4, 5):
            raise ValueError(player_count_error(self.players).replace("played by", "scored for"))
        if not isinstance(self.contract, Contract):
            raise ValueError(f"{self.contract!r} is not a contract")
        if not 0 <= self.taker_half_points <= TOTAL_HALF_POINTS:
            raise ValueError(
                f"taker points {Fraction(self.taker_half_points, 2)} are not within 0..91"
            )
        if not 0 <= self.bouts <= 3:
            raise ValueError(f"{self.bouts} bouts: there are 0 to 3")
        if self.taker_alone and self.players != 5:
            raise ValueError("only a 5-player taker can play alone")
        if len(self.poignees) > self.players:
            raise ValueError(f"{len(self.poignees)} poignées for {self.players} players")

    @classmethod
    def with_points(cls, points: float | str | Fraction, **fields: object) -> DealSummary:
        """Build a summary from card points (``49.5``, ``"49.5"``, ``Fraction(99, 2)``)."""
        half = Fraction(points) * 2
        if half.denominator != 1:
            raise ValueError(f"{points} points: card points come in halves")
        return cls(taker_half_points=int(half), **fields)  # type: ignore[arg-type]

    @property
    def taker_points(self) -> Fraction:
        return Fraction(self.taker_half_points, 2)


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """Every term of the score, per defender (X), then what each role is paid."""

    target: int
    won: bool
    margin: int
    """|points - target|, a half-point rounded to the winner's side."""
    contract_points: int
    """(25 + margin) x multiplier, signed by the result."""
    petit_au_bout: int
    """+/-10 x multiplier, signed by the side that won it."""
    poignee: int
    chelem: int
    per_defender: int
    """X: what each defending hand pays (or receives when negative)."""
    taker: int
    partner: int
    defender: int
    """What each defender pays: -X, or with the dummy -2X (its own hand's and the dummy's)."""


def score_deal(summary: DealSummary) -> ScoreBreakdown:
    """The per-defender value X and every role's score (RULES.md, 'Scoring one deal')."""
    target = TARGETS[summary.bouts]
    diff = summary.taker_half_points - 2 * target
    won = diff >= 0
    margin = (abs(diff) + 1) // 2
    sign = 1 if won else -1
    multiplier = summary.contract.multiplier
    contract_points = sign * (BASE + margin) * multiplier
    petit = 0
    if summary.petit_au_bout is Side.TAKER:
        petit = PETIT_AU_BOUT * multiplier
    elif summary.petit_au_bout is Side.DEFENCE:
        petit = -PETIT_AU_BOUT * multiplier
    poignee = sign * sum(int(level) for level in summary.poignees)
    chelem = 0
    if summary.chelem is Side.TAKER:
        chelem = CHELEM_ANNOUNCED_MADE if summary.chelem_announced else CHELEM_UNANNOUNCED_MADE
    elif summary.chelem_announced:
        chelem = CHELEM_ANNOUNCED_FAILED
    if summary.chelem is Side.DEFENCE:
        chelem -= DEFENCE_CHELEM
    x = contract_points + petit + poignee + chelem
    taker_factor, partner_factor = _shares(summary.players, summary.taker_alone)
    defender_factor = 2 if summary.players == 2 else 1
    return _breakdown(
        target,
        won,
        margin,
        contract_points,
        petit,  # petit_au_bout
        poignee,
        chelem,
        x,  # per_defender
        taker_factor * x,  # taker
        partner_factor * x,  # partner
        -defender_factor * x,  # defender
    )


_breakdown: Final = builder(ScoreBreakdown)
"""``ScoreBreakdown(*fields)`` without the dataclass's ``__init__`` (arena.games.frozen): the
engine scores every deal it plays through :func:`score_deal`."""


def _shares(players: int, taker_alone: bool) -> tuple[int, int]:
    """(taker, partner) multiples of X so that the table sums to zero."""
    if players == 5:
        return (4, 0) if taker_alone else (2, 1)
    if players == 2:
        return 2, 0  # as for three players: X from each defending hand, the dummy's included
    return players - 1, 0


def settle(summary: DealSummary, taker: int, partner: int | None = None) -> tuple[int, ...]:
    """Each player's score for a deal, zero-sum. ``partner`` is the 5-player partner's seat.

    With the dummy the scores are the two players' (the dummy scores nothing): taker +2X,
    defender -2X."""
    n = summary.players
    if not 0 <= taker < n:
        raise ValueError(f"taker seat {taker} is not a seat of a {n}-player table")
    alone = partner is None or partner == taker
    if n == 5 and alone != summary.taker_alone:
        raise ValueError("the summary's taker_alone does not match the partner given")
    if n != 5 and not alone:
        raise ValueError("only 5-player deals have a partner")
    if partner is not None and not 0 <= partner < n:
        raise ValueError(f"partner seat {partner} is not a seat of a {n}-player table")
    return table_scores(score_deal(summary), n, taker, None if alone else partner)


def table_scores(
    breakdown: ScoreBreakdown, players: int, taker: int, partner: int | None
) -> tuple[int, ...]:
    """:func:`settle` from the deal's breakdown, its seats already checked (the engine, which
    has both at hand at the end of a deal)."""
    scores = [breakdown.defender] * players
    scores[taker] = breakdown.taker
    if partner is not None and partner != taker:
        scores[partner] = breakdown.partner
    return tuple(scores)
