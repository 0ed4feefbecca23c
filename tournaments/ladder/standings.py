"""A ladder's standings, as the command line and the web page show them: every entry with its
rating and interval, boards, last table, versions and whether it still plays."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from arena.storage.bots import BotRegistry
from arena.storage.models import Ladder

from ..storage.ladders import EntryRow, LadderStore, Member, PlayRow
from .rating import Play, Rating, history
from .settings import LadderSettings, VersionPolicy


@dataclass(frozen=True, slots=True)
class LadderRow:
    rank: int
    entry_id: int
    bot_id: str
    name: str
    version: str
    versions: tuple[str, ...]
    """The versions it played as: its own (a new version is a new entry), or every one the
    bot's Hellos named (versions continue the entry)."""
    rating: Rating
    boards: int
    tables: int
    last_seen: datetime | None
    status: str
    """playing, superseded (a newer version plays), left or revoked"""
    separated_from_next: bool | None
    """Whether its interval and the next entry's do not overlap (None: the last)."""


@dataclass(frozen=True, slots=True)
class LadderStandings:
    ladder: Ladder
    settings: LadderSettings
    rows: list[LadderRow]
    results: int
    """Seats of finished tables: what the ratings are fitted to."""
    tables: int
    boards: int
    """Boards drawn so far."""
    closed: set[int]
    """Boards that may be shown (every table played, no more to come)."""
    members: list[Member]


def fitted(plays: Sequence[PlayRow], entries: Sequence[EntryRow], settings: LadderSettings
           ) -> dict[int, Rating]:
    """The ladder's fit of these results alone, every entry rated (one without results: the
    prior's)."""
    return settings.fit(as_plays(plays), [e.id for e in entries])


def as_plays(rows: Sequence[PlayRow]) -> list[Play]:
    """The results as the fit reads them, each with the entries it played against."""
    tables: dict[str, list[int]] = defaultdict(list)
    for p in rows:
        tables[p.table_id].append(p.entry_id)
    out = []
    for p in rows:
        others = list(tables[p.table_id])
        others.remove(p.entry_id)
        out.append(Play(p.board, p.seat, p.entry_id, p.score, tuple(others)))
    return out


def read(ladders: LadderStore, name: str, *, stored: bool = True) -> LadderStandings:
    """The standings now: the stored fit when it read every result (``stored``), else a fit of
    the stored results."""
    ladder = ladders.ladder(name)
    settings = LadderStore.settings(ladder)
    plays = ladders.plays(ladder.id)
    entries = ladders.entries(ladder.id)
    ratings, results = ladders.stored_ratings(ladder.id) if stored else ({}, 0)
    if results != len(plays) or not set(ratings) >= {e.id for e in entries}:
        ratings = fitted(plays, entries, settings)
    return _standings(ladders, ladder, settings, plays, entries, ratings)


def refit(ladders: LadderStore, name: str) -> tuple[LadderStandings, float | None]:
    """Fit the stored results anew and store the fit; the standings and the largest change
    from the fit stored before, in rating points (None: none was stored for these results)."""
    ladder = ladders.ladder(name)
    plays = ladders.plays(ladder.id)
    entries = ladders.entries(ladder.id)
    before, results = ladders.stored_ratings(ladder.id)
    ratings = fitted(plays, entries, LadderStore.settings(ladder))
    ladders.store_ratings(ladder.id, ratings, len(plays))
    change = None
    if results == len(plays) and set(before) == set(ratings):
        change = max((max(abs(before[e].rating - r.rating), abs(before[e].low - r.low),
                          abs(before[e].high - r.high)) for e, r in ratings.items()),
                     default=0.0)
    standings = _standings(ladders, ladder, LadderStore.settings(ladder), plays, entries,
                           ratings)
    return standings, change


def over_time(ladders: LadderStore, ladder: Ladder, points: int = 24
              ) -> list[tuple[datetime, dict[int, Rating]]]:
    """Each entry's rating at up to ``points`` moments, refitted from the results known then."""
    rows = ladders.plays(ladder.id)
    stamps = {p.finished_at.timestamp(): p.finished_at for p in rows}
    timed = [(row.finished_at.timestamp(), play)
             for row, play in zip(rows, as_plays(rows), strict=True)]
    s = LadderStore.settings(ladder)
    return [(stamps[t], ratings) for t, ratings in history(
        timed, points, s.players, s.model, s.floor)]


def _standings(ladders: LadderStore, ladder: Ladder, settings: LadderSettings,
               plays: Sequence[PlayRow], entries: Sequence[EntryRow],
               ratings: dict[int, Rating]) -> LadderStandings:
    members = ladders.members(ladder.id)
    member = {m.bot_id: m for m in members}
    boards: dict[int, set[int]] = defaultdict(set)
    tables: dict[int, set[str]] = defaultdict(set)
    last: dict[int, datetime] = {}
    for p in plays:
        boards[p.entry_id].add(p.board)
        tables[p.entry_id].add(p.table_id)
        last[p.entry_id] = max(last.get(p.entry_id, p.finished_at), p.finished_at)
    newest: dict[str, int] = {}
    for e in entries:
        newest[e.bot_id] = max(newest.get(e.bot_id, e.id), e.id)
    seen = BotRegistry(ladders.engine).versions_by_bot()
    ordered = sorted(entries, key=lambda e: (-ratings[e.id].rating, e.id))
    rows = []
    for rank, e in enumerate(ordered, 1):
        m = member.get(e.bot_id)
        status = ("revoked" if m is None or m.revoked else "left" if m.left_at is not None
                  else "superseded" if newest[e.bot_id] != e.id else "playing")
        if settings.versions is VersionPolicy.CONTINUE:
            versions = tuple(dict.fromkeys(v.version for v in reversed(seen.get(e.bot_id, []))))
        else:
            versions = (e.version,)
        following = ordered[rank] if rank < len(ordered) else None
        rows.append(LadderRow(
            rank, e.id, e.bot_id, e.name, e.version, versions or (e.version,), ratings[e.id],
            len(boards[e.id]), len(tables[e.id]), last.get(e.id), status,
            None if following is None
            else ratings[e.id].separated_from(ratings[following.id])))
    state = ladders.field(ladder.id)
    return LadderStandings(ladder, settings, rows, len(plays),
                           len({p.table_id for p in plays}), state.next_board,
                           ladders.closed_boards(ladder.id), members)


def as_json(standings: LadderStandings) -> dict[str, object]:
    """The standings for scripts (``--json``)."""
    s = standings.settings
    return {
        "ladder": standings.ladder.name, "id": standings.ladder.id, "game": s.game,
        "players": s.players, "game_settings": dict(s.game_settings),
        "versions": s.versions.value, "boards_per_hour": s.boards_per_hour,
        "tables_per_board": s.tables_per_board, "model": s.model.value,
        "unit": s.rating_unit, "results": standings.results,
        "tables": standings.tables, "boards": standings.boards,
        "boards_closed": len(standings.closed),
        "entries": [{
            "rank": r.rank, "entry": r.entry_id, "bot_id": r.bot_id, "name": r.name,
            "version": r.version, "versions": list(r.versions),
            "rating": _round(r.rating.rating), "low": _round(r.rating.low),
            "high": _round(r.rating.high), "boards": r.boards, "tables": r.tables,
            "last_seen": r.last_seen.isoformat() if r.last_seen else None,
            "status": r.status, "separated_from_next": r.separated_from_next,
        } for r in standings.rows],
    }


def _round(value: float) -> float:
    return round(value, 1) if math.isfinite(value) else value
