"""What the web page shows, read from the database: synchronous, called in a worker thread.

Everything the page may show passes through here, and so does the secrecy rule:

- a deal (hands, chien, bids, cards played, decisions, the JSON record) is shown only once its
  board is finished at every table: before that, it is still being played somewhere;
- a sealed tournament (a safe seating not yet finished, see :meth:`TournamentStore.sealed`)
  shows nothing of a board until the board is finished everywhere: not its tables' ids (they
  are opaque so that a bot cannot tell a table's board), not their results, and its standings
  count only those boards; its seed stays hidden until the end (:meth:`public_seed`).

Standings of a large tournament are costly to compute, so each tournament's are cached and
computed again only when its progress changes (one cheap ``GROUP BY`` per look).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import statistics
import threading
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Engine

from arena.games.base import Card, Record, ScoresMatches
from arena.games.display import ScoreUnit, TalliesMatches, display_of, game_form, score_unit
from arena.storage.bots import BotRegistry, VersionSummary
from arena.storage.models import (
    Bot,
    TableStatus,
    Tournament,
    TournamentStatus,
)

from ..duplicate.matches import MatchStandings, match_standings
from ..duplicate.scoring import Entry, Standings, charged_players, compute_standings
from ..duplicate.settings import TournamentSettings
from ..duplicate.stats import t_quantile
from ..storage.ladders import LadderStore
from ..storage.pages import PageReads
from ..store import TournamentStore
from .replay import deal_summary, faces_of

BOARDS_PER_PAGE = 100
DONE_STATUSES = frozenset(
    s for s in TournamentStatus if s.value in ("finished", "cancelled")
)
"""Tournaments that no longer change."""


IDLE_RATIO = 4.0
"""After computing a tournament's standings for T seconds, wait at least this many times T
before computing them again: a 10,000-table tournament takes most of a second, and while its
tables finish several a second the page must not take a core from the arena beside it (at
most a fifth of one, this way). A small tournament, computed in milliseconds, is always
fresh."""


class NotFound(LookupError):
    """An id the page does not know, or may not show yet: a 404."""


@dataclass(frozen=True, slots=True)
class ProgressView:
    pending: int
    running: int
    done: int
    infractions: int
    boards: int
    boards_done: int

    @property
    def total(self) -> int:
        return self.pending + self.running + self.done

    @property
    def percent(self) -> float:
        return 100.0 * self.done / self.total if self.total else 0.0


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """A board's cards as a page shows them: the dealer, every hand, the cards no hand got."""

    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    undealt: tuple[Card, ...]
    """French Tarot's chien, Tre e Venticinque's talon."""


@dataclass(slots=True)
class TournamentHead:
    id: str
    name: str
    status: TournamentStatus
    settings: TournamentSettings
    sealed: bool
    seed: str | None
    created_at: str
    finished_at: str | None
    form: str = ""
    """The game and its tables' form: ``French Tarot, 2 players with the dummy``."""
    bot_names: tuple[str, ...] = ()
    """The bots' names, in the settings' order (filled in by :meth:`WebData.tournaments`)."""

    @property
    def unit(self) -> ScoreUnit:
        """What the game's scores count."""
        return score_unit(self.settings.rules)

    @property
    def match_words(self) -> tuple[str, str]:
        """What the game calls a match and how one is won (for a game with matches)."""
        display = getattr(self.settings.rules, "display", None)
        if isinstance(display, TalliesMatches):
            return display.match_name, display.match_rule
        return "match", "a match is several deals by the same bots in the same seats"


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    bot_id: str
    scored: bool
    score: int | None
    infractions: int


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    board: int
    number: int
    status: TableStatus
    outcome: str | None
    seats: tuple[SeatResult, ...]


@dataclass(slots=True)
class TournamentData:
    """One tournament as the page shows it now; cached until its progress changes."""

    head: TournamentHead
    progress: ProgressView
    names: dict[str, str]
    standings: Standings
    shown_boards: set[int]
    """Boards finished at every table: their deals may be shown."""
    board_tables: dict[int, tuple[int, int]]
    """board -> (tables done, tables) over the boards the page may mention."""
    cumulative: dict[str, list[tuple[int, float, float]]]
    """bot -> (board, cumulative datum, 95 % half-width of the cumulative) in board order."""
    version: str = ""
    """A tag of the state this was computed from (see :meth:`WebData.version`)."""
    infractions: list[dict[str, Any]] = field(default_factory=list)
    """The most recent infractions (newest first), of boards the page may show."""
    infraction_count: int = 0
    matches: MatchStandings | None = None
    """The game's own matches (Tre e Venticinque's games of three deals), over the boards the
    page may show; None for a game without matches."""


def _iso(moment: Any) -> str | None:
    return None if moment is None else moment.isoformat(timespec="seconds")


class WebData:
    """The page's reads. Thread-safe: the app calls it from worker threads."""

    def __init__(self, engine: Engine, idle_ratio: float = IDLE_RATIO) -> None:
        self.engine = engine
        self.store = TournamentStore(engine)
        self.reads = PageReads(engine)
        self.idle_ratio = idle_ratio
        self._lock = threading.Lock()
        self._cache: dict[str, tuple[str, TournamentData]] = {}
        self._bots: dict[str, tuple[Any, dict[str, Any]]] = {}
        self._next: dict[str, float] = {}
        """tournament -> when its standings may be computed again (see :data:`IDLE_RATIO`)."""
        self._names: dict[str, str] = {}
        self._versions: dict[str, tuple[float, str]] = {}

    # ------------------------------------------------------------------------- lookups
    def head(self, tournament_id: str) -> TournamentHead:
        row = self.reads.tournament(tournament_id)
        if row is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        return self._head(row)

    def _head(self, row: Tournament) -> TournamentHead:
        """The tournament's facts; ``sealed`` as :meth:`TournamentStore.sealed` says."""
        settings = TournamentSettings.from_json(row.settings_json)
        sealed = settings.seating.safe and row.status is not TournamentStatus.FINISHED
        return TournamentHead(row.id, row.name, row.status, settings, sealed,
                              None if sealed else row.seed, _iso(row.created_at) or "",
                              _iso(row.finished_at),
                              game_form(settings.rules, settings.table_options))

    def names(self, bot_ids: Iterable[str]) -> dict[str, str]:
        wanted = set(bot_ids)
        with self._lock:
            missing = wanted - set(self._names)
        if missing:
            found = self.reads.names(missing)
            with self._lock:
                self._names.update(found)
        with self._lock:
            return {b: self._names.get(b, b) for b in wanted}

    def version(self, tournament_id: str) -> str:
        """A tag that changes whenever what a tournament's page shows may change."""
        found = self.reads.status(tournament_id)
        if found is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        status, counts = found
        state = (status.value, tuple(sorted((str(s), n) for s, n in counts)))
        return hashlib.sha256(repr(state).encode()).hexdigest()[:16]

    def recent_version(self, tournament_id: str, max_age: float) -> str:
        """:meth:`version`, looked up at most once per ``max_age`` seconds per tournament: a
        hundred open live pages cost the database one query a second, not a hundred."""
        now = time.monotonic()
        with self._lock:
            known = self._versions.get(tournament_id)
        if known is not None and now - known[0] < max_age:
            return known[1]
        version = self.version(tournament_id)
        with self._lock:
            self._versions[tournament_id] = (now, version)
        return version

    # ---------------------------------------------------------------------- tournaments
    def tournaments(self) -> list[tuple[TournamentHead, ProgressView]]:
        """Every tournament, newest first, with its progress."""
        overview = self.reads.overview()
        heads = [self._head(r) for r in overview.tournaments]
        counts, unfinished_boards = overview.tables, overview.unfinished_boards
        names = self.names({b for head in heads for b in head.settings.bots})
        out = []
        for head in heads:
            head.bot_names = tuple(names.get(b, b) for b in head.settings.bots)
            c = counts.get(head.id, {})
            boards = head.settings.boards
            out.append((head, ProgressView(
                c.get("pending", 0), c.get("running", 0), c.get("done", 0), 0, boards,
                boards - unfinished_boards.get(head.id, 0),
            )))
        return out

    def tournament(self, tournament_id: str) -> TournamentData:
        """The tournament's standings and progress, from the cache while nothing changed (or
        while the last computation is too recent to start another, see :data:`IDLE_RATIO`:
        then the standings shown are a few seconds old, and the live page catches up)."""
        version = self.version(tournament_id)
        with self._lock:
            cached = self._cache.get(tournament_id)
            not_before = self._next.get(tournament_id, 0.0)
        if cached is not None and (cached[0] == version or time.monotonic() < not_before):
            return cached[1]
        began = time.monotonic()
        data = self._compute(tournament_id)
        data.version = version
        ended = time.monotonic()
        with self._lock:
            self._cache[tournament_id] = (version, data)
            self._next[tournament_id] = ended + self.idle_ratio * (ended - began)
        return data

    def refresh(self) -> int:
        """Recompute the cached tournaments that changed since (those not over), as often as
        :data:`IDLE_RATIO` allows: a visitor then finds them ready. How many were recomputed."""
        with self._lock:
            cached = [(tid, data.version) for tid, (_, data) in self._cache.items()
                      if data.head.status not in DONE_STATUSES]
        changed = 0
        for tid, version in cached:
            try:
                if self.version(tid) != version and self.tournament(tid).version != version:
                    changed += 1
            except NotFound:  # deleted meanwhile
                with self._lock:
                    self._cache.pop(tid, None)
        return changed

    def forget(self) -> None:
        """Drop every cached tournament (the benchmark's cold loads)."""
        with self._lock:
            self._cache.clear()
            self._bots.clear()
            self._next.clear()

    def _compute(self, tournament_id: str) -> TournamentData:
        played = self.reads.played(tournament_id)
        if played is None:
            raise NotFound(f"no tournament {tournament_id!r}")
        head = self._head(played.tournament)
        tables, seats, offences = played.tables, played.seats, played.offences
        # an infraction at a seat no player holds (the dummy's) is its decider's (the defender)
        charged = charged_players(head.settings.rules, head.settings.players,
                                  [(o[0], o[1], o[2]) for o in offences], self.store.record_texts)
        offences = [(t, index, charged.get((t, index), seat), *rest)
                    for t, index, seat, *rest in offences]
        board_of = {t[0]: t[1] for t in tables}
        per_board: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        counts = {"pending": 0, "running": 0, "done": 0}
        for _, board, _, status, _ in tables:
            per_board[board][1] += 1
            counts[str(status)] += 1
            if status == TableStatus.DONE:
                per_board[board][0] += 1
        shown = {b for b, (done, n) in per_board.items() if done == n}
        visible = shown if head.sealed else set(per_board)
        kinds: dict[tuple[str, int], list[str]] = defaultdict(list)
        for table_id, _index, seat, _, _, kind, _ in sorted(offences, key=lambda o: (o[0], o[1])):
            kinds[(table_id, seat)].append(str(kind))
        entries = [
            Entry(board_of[t], seat, t, bot, score or 0, n, tuple(kinds.get((t, seat), ())))
            for t, seat, bot, score, n, scored in seats
            if scored and board_of[t] in visible
        ]
        settings = head.settings
        standings = compute_standings(entries, settings.penalties, settings.scoring)
        seat_bot = {(t, seat): bot for t, seat, bot, _, _, _ in seats}
        names = self.names(settings.bots)
        infractions = [
            infraction_row(board_of[t] in shown, table_id=t, board=board_of[t], index=index,
                           seat=seat, bot_id=seat_bot.get((t, seat), ""), action=action,
                           seconds=seconds, kind=kind, reason=reason)
            for t, index, seat, action, seconds, kind, reason in offences
            if board_of[t] in visible
        ]
        infractions.sort(key=lambda i: (-i["board"], i["table_id"], -i["index"]))
        progress = ProgressView(counts["pending"], counts["running"], counts["done"],
                                len(infractions), settings.boards, len(shown))
        matches = None
        if isinstance(settings.rules, ScoresMatches):  # reads every record: only then
            matches = match_standings(settings.rules, [
                d for d in self.store.played_deals(tournament_id) if d.board in visible])
        return TournamentData(
            head=head, progress=progress, names=names, standings=standings,
            shown_boards=shown,
            board_tables={b: (v[0], v[1]) for b, v in per_board.items() if b in visible},
            cumulative=cumulative_scores(standings),
            infractions=infractions[:100], infraction_count=len(infractions),
            matches=matches,
        )

    # --------------------------------------------------------------------------- boards
    def board(self, tournament_id: str, number: int) -> dict[str, Any]:
        data = self.tournament(tournament_id)
        if not 0 <= number < data.head.settings.boards:
            raise NotFound(f"tournament {tournament_id} has no board {number}")
        shown = number in data.shown_boards
        game = data.head.settings.rules
        look = {"faces": faces_of(game), "unit": data.head.unit, "game": game}
        if data.head.sealed and not shown:
            return {"data": data, "number": number, "shown": False, "tables": [],
                    "deal": None, "summaries": {}, "datum": {}, "undealt": "", "unheld": {},
                    **look}
        board = self.reads.board(tournament_id, number)
        records: dict[str, Record] = {}
        if shown:
            for t, _ in board:
                if t.record_json is not None:
                    records[t.id] = game.load_record(json.loads(t.record_json))
        deal, undealt, unheld = None, "", {}
        if records:  # every table played the same cards: the first record says them
            state = game.replay(next(iter(records.values())))
            cards = game.revealed(state)
            deal = BoardDeal(state.dealer, cards.hands, cards.undealt)
            display = display_of(game)
            titles = [fact.title for fact in display.undealt(state)]
            undealt = titles[0].capitalize() if titles else "Not dealt"
            players = data.head.settings.players
            # a hand no bot holds (French Tarot's dummy) is named by its role at every table
            unheld = {seat: role for seat, role in display.roles(state).items()
                      if seat >= players}
        datum = {
            (s.entry.table_id, s.entry.seat): (s.datum, s.matchpoints)
            for s in data.standings.scored if s.entry.board == number
        }
        rows = [
            TableRow(t.id, t.board_number, t.number, t.status, t.outcome, tuple(
                SeatResult(s.seat, s.bot_id, s.scored, s.score, s.infractions) for s in seats
            ))
            for t, seats in board
        ]
        summaries = {table_id: deal_summary(game, r) for table_id, r in records.items()}
        return {"data": data, "number": number, "shown": shown, "tables": rows, "deal": deal,
                "summaries": summaries, "datum": datum, "undealt": undealt, "unheld": unheld,
                **look}

    # --------------------------------------------------------------------------- tables
    def table(self, table_id: str) -> dict[str, Any]:
        """One table; its record and decisions only if its board is finished everywhere."""
        found = self.reads.table(table_id)
        if found is None:
            raise NotFound(f"no table {table_id!r}")
        table, seats = found.table, found.seats
        head = self._head(found.tournament)
        board_done = found.unfinished == 0
        if head.sealed and not board_done:
            # the same answer as an unknown id: not even whether this id exists
            raise NotFound(f"no table {table_id!r}")
        shown = board_done and table.record_json is not None
        game = head.settings.rules
        record = (game.load_record(json.loads(table.record_json))
                  if shown and table.record_json else None)
        decisions = self.store.decisions(table_id) if shown else []
        names = self.names(s.bot_id for s in seats)
        ladder = next((row.name for row in LadderStore(self.engine).ladders()
                       if row.tournament_id == table.tournament_id), None)
        return {"head": head, "table": table, "seats": seats, "record": record,
                "decisions": decisions, "names": names, "shown": shown,
                "board_done": board_done, "game": game, "unit": score_unit(game),
                "ladder": ladder}

    def record_json(self, table_id: str) -> str:
        info = self.table(table_id)
        if info["record"] is None:
            raise NotFound(f"the record of table {table_id} is not shown yet")
        record: Record = info["record"]
        return record.dumps(indent=1)

    # ----------------------------------------------------------------------------- bots
    def bot(self, bot_id: str) -> dict[str, Any]:
        bot = self.reads.bot(bot_id)
        if bot is None:
            raise NotFound(f"no bot {bot_id!r}")
        heads = [self._head(r) for r in self.reads.tournaments()]
        mine = [h for h in heads if bot_id in h.settings.bots]
        # a busy bot has made hundreds of thousands of decisions: its page is cached until
        # one of its tournaments changes, and recomputed no more often than IDLE_RATIO allows
        key = (bot.name, bot.revoked, tuple((h.id, self.version(h.id)) for h in mine))
        with self._lock:
            cached = self._bots.get(bot_id)
            not_before = self._next.get("bot:" + bot_id, 0.0)
        if cached is not None and (cached[0] == key or time.monotonic() < not_before):
            return {**cached[1], "versions": self.bot_versions(bot_id)}
        began = time.monotonic()
        info = self._bot(bot, mine)
        ended = time.monotonic()
        with self._lock:
            self._bots[bot_id] = (key, info)
            self._next["bot:" + bot_id] = ended + self.idle_ratio * (ended - began)
        return {**info, "versions": self.bot_versions(bot_id)}

    def bot_versions(self, bot_id: str) -> list[VersionSummary]:
        """The versions the bot's Hellos named, the latest seen first: read on every load (one
        short query), as a connection changes them without changing any tournament."""
        return BotRegistry(self.engine).versions(bot_id)

    def _bot(self, bot: Bot, mine: list[TournamentHead]) -> dict[str, Any]:
        bot_id = bot.id
        found = self.reads.bot_decisions(bot_id)
        decisions = [*found.mine, *self._charged_to_bot(mine, found.others)]
        results = []
        shown_of: dict[str, set[int]] = {}
        sealed = {h.id for h in mine if h.sealed}
        names_of = {h.id: h.name for h in mine}
        for head in mine:
            data = self.tournament(head.id)
            shown_of[head.id] = data.shown_boards
            row = next((r for r in data.standings.rows if r.bot_id == bot_id), None)
            results.append({"head": head, "row": row, "players": len(data.standings.rows),
                            "progress": data.progress})
        latency: dict[str, list[float]] = defaultdict(list)
        history = []
        for tid, board, table_id, index, action, seconds, kind, reason in decisions:
            shown = board in shown_of.get(tid, ())
            if tid in sealed and not shown:
                continue  # a sealed tournament's board still being played
            if shown:  # a time tells how hard a card was to choose: the board's cards
                latency[tid].append(seconds)
                latency[""].append(seconds)
            if kind is not None:
                history.append(infraction_row(
                    shown, tournament_id=tid, tournament=names_of.get(tid, tid), board=board,
                    table_id=table_id, index=index, action=action, seconds=seconds,
                    kind=kind, reason=reason))
        history.sort(key=lambda h: (h["tournament_id"], h["board"], h["index"]), reverse=True)
        return {"bot": bot, "results": results,
                "latency": {k: latency_summary(v) for k, v in latency.items()},
                "history": history[:200], "history_count": len(history)}

    def _charged_to_bot(
        self, mine: list[TournamentHead], others: Sequence[Any]
    ) -> list[tuple[Any, ...]]:
        """The infractions at seats of no player (``others``: those at a seat not the bot's,
        with the bot's seat) that the bot is charged with, as it decided for that seat."""
        heads = {h.id: h for h in mine}
        out = []
        by_tournament: dict[str, list[Any]] = defaultdict(list)
        for row in others:
            head = heads.get(row[0])
            if head is not None and row[8] >= head.settings.players:
                by_tournament[row[0]].append(row)
        for tid, rows in by_tournament.items():
            settings = heads[tid].settings
            charged = charged_players(settings.rules, settings.players,
                                      [(r[2], r[3], r[8]) for r in rows],
                                      self.store.record_texts)
            out += [r[:8] for r in rows if charged.get((r[2], r[3])) == r[9]]
        return out


def infraction_row(shown: bool, *, action: str, seconds: float, kind: Any, reason: str | None,
                   **where: Any) -> dict[str, Any]:
    """An infraction as a page lists it. Of a board still being played somewhere (``shown``
    false) only where and what kind: its fallback is a card of the board, and its reason
    ("must follow hearts", "a triple poignée needs 15 trumps... this hand has 5") and its time
    tell a bot still to play the board about a hand, whatever the seating."""
    return {**where, "shown": shown, "kind": str(kind),
            "action": action if shown else None,
            "seconds": seconds if shown else None,
            "reason": (reason or "") if shown else ""}


@dataclass(frozen=True, slots=True)
class Latency:
    decisions: int
    mean: float
    median: float
    p95: float
    max: float


def latency_summary(seconds: list[float]) -> Latency:
    ordered = sorted(seconds)
    n = len(ordered)
    return Latency(n, math.fsum(ordered) / n, statistics.median(ordered),
                   ordered[min(n - 1, math.ceil(0.95 * n) - 1)], ordered[-1])


def cumulative_scores(standings: Standings) -> dict[str, list[tuple[int, float, float]]]:
    """Each bot's cumulative datum over the boards it played, in board order, with the 95 %
    half-width of that cumulative at each board (``t * s * sqrt(k)`` with the running standard
    deviation of its per-board values; infinite before two boards)."""
    per: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in standings.scored:
        per[s.entry.bot_id][s.entry.board].append(s.datum)
    out: dict[str, list[tuple[int, float, float]]] = {}
    for bot, boards in per.items():
        points = []
        total = mean = m2 = 0.0
        for k, board in enumerate(sorted(boards), start=1):
            value = math.fsum(boards[board]) / len(boards[board])
            total += value
            delta = value - mean
            mean += delta / k
            m2 += delta * (value - mean)
            half = math.inf if k < 2 else _t95(k - 1) * math.sqrt(m2 / (k - 1) * k)
            points.append((board, total, half))
        out[bot] = points
    return out


@functools.cache
def _t95(df: int) -> float:
    """Student's 97.5 % quantile, taken at 120 degrees of freedom past that (at most 1 %
    wider than the exact value): each one computed costs about a millisecond."""
    return t_quantile(0.975, min(df, 120))


def dumps(data: Any) -> str:
    """JSON safe to put inside a ``<script>`` element: no ``<``, ``>`` or ``&`` left raw."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
