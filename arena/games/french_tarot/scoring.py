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

# The constants of the rules live with the arithmetic (compiled): re-exported as they were.
from .scoring_core import BASE as BASE
from .scoring_core import CHELEM_ANNOUNCED_FAILED as CHELEM_ANNOUNCED_FAILED
from .scoring_core import CHELEM_ANNOUNCED_MADE as CHELEM_ANNOUNCED_MADE
from .scoring_core import CHELEM_UNANNOUNCED_MADE as CHELEM_UNANNOUNCED_MADE
from .scoring_core import DEFENCE_CHELEM as DEFENCE_CHELEM
from .scoring_core import PETIT_AU_BOUT as PETIT_AU_BOUT
from .scoring_core import TARGETS as TARGETS
from .scoring_core import score_terms, seat_scores


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
    """The per-defender value X and every role's score (RULES.md, 'Scoring one deal'),
    computed by :func:`~.scoring_core.score_terms`, the engine's own code path."""
    return _breakdown(*score_terms(
        summary.players,
        summary.contract.multiplier,
        summary.taker_half_points,
        summary.bouts,
        side_sign(summary.petit_au_bout),
        sum(int(level) for level in summary.poignees),
        summary.chelem_announced,
        side_sign(summary.chelem),
        summary.taker_alone,
    ))


def side_sign(side: Side | None) -> int:
    """A side as :func:`~.scoring_core.score_terms` takes it: 1 the taker's, -1 the defence,
    0 none."""
    return 1 if side is Side.TAKER else -1 if side is Side.DEFENCE else 0


_breakdown: Final = builder(ScoreBreakdown)
"""``ScoreBreakdown(*fields)`` without the dataclass's ``__init__`` (arena.games.frozen): the
engine scores every deal it plays through :func:`score_deal`."""


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
    return seat_scores(
        players, taker, partner, breakdown.taker, breakdown.partner, breakdown.defender
    )
