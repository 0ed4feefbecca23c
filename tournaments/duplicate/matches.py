"""Matches as a game's own rules score them, beside the duplicate ranking: for a game that
scores several deals together (Tre e Venticinque: three deals, one per dealer), every run of
boards ``k .. k + n - 1`` played by the same bots in the same seats is one match.

In rotation and gauntlet seatings a table number keeps its bots in their seats on every board,
so each table number makes one match per run of boards; the seatings that move bots from board
to board (field, competition) make matches only where the seats happen to stay the same.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arena.games.base import Game, ScoresMatches


@dataclass(frozen=True, slots=True)
class Match:
    boards: tuple[int, ...]
    table: int
    """The table number the match was played at."""
    bots: tuple[str, ...]
    """By seat."""
    points: tuple[str, ...]
    """By seat, as the game writes points."""
    winners: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class MatchRow:
    bot_id: str
    played: int
    won: float
    """Matches won; a tie shares the win between the tied bots."""

    @property
    def won_pct(self) -> float:
        return 100.0 * self.won / self.played if self.played else 0.0


@dataclass(frozen=True, slots=True)
class PlayedDeal:
    """One finished table, as matches read it."""

    board: int
    table: int
    """The table number."""
    bots: tuple[str, ...]
    """By seat."""
    result: Any
    """The game's result of the deal (what its ``score_match`` takes)."""


@dataclass(frozen=True, slots=True)
class MatchStandings:
    deals: int
    """Deals per match."""
    matches: tuple[Match, ...]
    rows: tuple[MatchRow, ...]
    """Most matches won first."""


def match_standings(game: Game, deals: Iterable[PlayedDeal]) -> MatchStandings | None:
    """The matches of the finished runs of boards among ``deals`` (the finished tables of a
    tournament of ``game``); None for a game without matches."""
    if not isinstance(game, ScoresMatches):
        return None
    size = game.match_deals
    played: dict[tuple[int, int], dict[int, tuple[tuple[str, ...], Any]]] = defaultdict(dict)
    for deal in deals:
        played[(deal.board // size, deal.table)][deal.board] = (deal.bots, deal.result)
    matches = []
    for (run, number), boards in sorted(played.items()):
        numbers = tuple(range(run * size, (run + 1) * size))
        if sorted(boards) != list(numbers) or len({boards[b][0] for b in numbers}) != 1:
            continue  # not finished yet, or not the same bots in the same seats
        bots = boards[numbers[0]][0]
        score = game.score_match([boards[b][1] for b in numbers])
        matches.append(Match(numbers, number, bots,
                             tuple(score.points(s) for s in range(len(bots))), score.winners))
    played_by: dict[str, int] = defaultdict(int)
    won_by: dict[str, float] = defaultdict(float)
    for match in matches:
        for seat, bot in enumerate(match.bots):
            played_by[bot] += 1
            if seat in match.winners:
                won_by[bot] += 1 / len(match.winners)
    rows = sorted((MatchRow(bot, played_by[bot], won_by[bot]) for bot in played_by),
                  key=lambda r: (-r.won_pct, r.bot_id))
    return MatchStandings(size, tuple(matches), tuple(rows))
