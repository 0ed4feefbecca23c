"""The ladders' pages: every ladder, and each one's leaderboard, ratings over time and boards.

What a ladder's page shows of its boards follows the competition's rule: nothing of a board
until it is closed (played at all its tables, with no more to come; a board of a ladder stays
open to bots that come later). The ratings are fitted to every result, open boards' included:
a rating is an aggregate over many boards and tells nobody a hand (docs/ladder.md). Its table
links lead to the tables' own pages, which show a ladder's table only once its board is closed.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..ladder.rating import Z95
from ..ladder.standings import LadderStandings, over_time, read
from ..storage.ladders import LadderStore, UnknownLadderError
from .plot import Plot, cumulative_plot
from .views import NotFound

Render = Callable[..., Awaitable[Response]]
Read = Callable[..., Awaitable[Any]]
BOARDS_LISTED = 40
"""Closed boards listed per entry (the latest)."""


@dataclass(frozen=True, slots=True)
class LadderPage:
    standings: LadderStandings
    plot: Plot | None
    boards: dict[int, list[tuple[int, str, int]]]
    """entry -> (board, table id, seat) of its tables on closed boards, latest first"""
    open_boards: dict[int, int]
    """entry -> boards it played that are still open"""
    span: tuple[float, float]
    """The lowest and highest ends of the intervals (the leaderboard's bars)."""


class LadderPages:
    def __init__(self, engine: Engine, render: Render, read_in_thread: Read) -> None:
        self.ladders = LadderStore(engine)
        self.render = render
        self.read = read_in_thread
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[tuple[int, int], LadderPage]] = {}

    def routes(self) -> list[Route]:
        get = ["GET"]
        return [Route("/ladders", self.index, methods=get),
                Route("/ladders/{name}", self.ladder, methods=get)]

    async def index(self, request: Request) -> Response:
        rows = await self.read(self.overview)
        return await self.render("ladders.html", rows=rows, title="Ladders")

    async def ladder(self, request: Request) -> Response:
        page = await self.read(self.page, request.path_params["name"])
        return await self.render("ladder.html", page=page, s=page.standings,
                                 settings=page.standings.settings,
                                 title=f"Ladder {page.standings.ladder.name}")

    def overview(self) -> list[dict[str, Any]]:
        rows = []
        for ladder in self.ladders.ladders():
            standings = read(self.ladders, ladder.id)
            leader = standings.rows[0] if standings.rows else None
            rows.append({"s": standings, "leader": leader,
                         "members": sum(m.active for m in standings.members)})
        return rows

    def page(self, name: str) -> LadderPage:
        try:
            standings = read(self.ladders, name)
        except UnknownLadderError as exc:
            raise NotFound(str(exc)) from None
        key = (standings.results, len(standings.rows))
        with self._lock:
            cached = self._cache.get(standings.ladder.id)
        if cached is not None and cached[0] == key:
            return cached[1]
        page = self._page(standings)
        with self._lock:
            self._cache[standings.ladder.id] = (key, page)
        return page

    def _page(self, standings: LadderStandings) -> LadderPage:
        moments = over_time(self.ladders, standings.ladder)
        centre = standings.settings.model.centre
        plays = self.ladders.plays(standings.ladder.id)
        tables_at: list[int] = []
        finished = sorted({(p.finished_at, p.table_id) for p in plays})
        for moment, _ in moments:
            tables_at.append(sum(1 for at, _ in finished if at <= moment))
        names = {str(r.entry_id): _label(r.name, r.version, standings)
                 for r in standings.rows}
        lines: dict[str, list[tuple[int, float, float]]] = {}
        for (_, ratings), tables in zip(moments, tables_at, strict=True):
            for entry, rating in ratings.items():
                lines.setdefault(str(entry), []).append(
                    (tables, rating.rating - centre, Z95 * rating.sd))
        order = [str(r.entry_id) for r in standings.rows]
        plot = cumulative_plot(lines, names, order, max(tables_at, default=1) + 1)
        boards: dict[int, list[tuple[int, str, int]]] = {}
        open_boards: dict[int, set[int]] = {}
        for p in reversed(plays):
            if p.board in standings.closed:
                listed = boards.setdefault(p.entry_id, [])
                if len(listed) < BOARDS_LISTED:
                    listed.append((p.board, p.table_id, p.seat))
            else:
                open_boards.setdefault(p.entry_id, set()).add(p.board)
        lows = [r.rating.low for r in standings.rows]
        highs = [r.rating.high for r in standings.rows]
        span = (min(lows, default=centre - 1), max(highs, default=centre + 1))
        return LadderPage(standings, plot, boards,
                          {e: len(b) for e, b in open_boards.items()}, span)


def _label(name: str, version: str, standings: LadderStandings) -> str:
    """An entry's name in the plot: the bot's, and its version when the bot has several."""
    same = [r for r in standings.rows if r.name == name]
    return f"{name} {version}" if len(same) > 1 and version else name
