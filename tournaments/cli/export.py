"""Export a tournament as JSON (everything) and CSV (standings, tables, decisions)."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Collection
from pathlib import Path
from typing import Any

from arena.games.base import Game
from arena.games.display import score_unit
from arena.storage.bots import BotRegistry, UnknownBotError

from ..duplicate.scoring import Standings, compute_standings
from ..store import TournamentStore


def bot_names(store: TournamentStore, bot_ids: list[str]) -> dict[str, str]:
    registry = BotRegistry(store.engine)
    names = {}
    for bot_id in bot_ids:
        try:
            names[bot_id] = registry.get(bot_id).name
        except UnknownBotError:
            names[bot_id] = bot_id
    return names


def unit_json(game: Game) -> dict[str, Any]:
    """What the game's scores count, for a reader of the numbers (Tre e Venticinque: thirds)."""
    unit = score_unit(game)
    return {"name": unit.name, "long_name": unit.long_name, "per_point": unit.per_point}


def standings_of(
    store: TournamentStore, tournament_id: str, boards: Collection[int] | None = None
) -> Standings:
    """The standings over ``boards`` (None: every table played)."""
    settings = store.settings(tournament_id)
    entries = store.entries(tournament_id)
    if boards is not None:
        entries = [e for e in entries if e.board in boards]
    return compute_standings(entries, settings.penalties, settings.scoring)


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def standings_rows(standings: Standings, names: dict[str, str]) -> list[dict[str, Any]]:
    return [
        {
            "rank": row.rank,
            "bot_id": row.bot_id,
            "bot": names.get(row.bot_id, row.bot_id),
            "mean_per_board": round(row.per_board.mean, 3),
            "ci95_low": _finite(round(row.per_board.low, 3)),
            "ci95_high": _finite(round(row.per_board.high, 3)),
            "total": round(row.total, 3),
            "matchpoint_pct": round(row.matchpoint_pct, 2),
            "boards": row.boards,
            "entries": row.entries,
            "infractions": sum(row.infractions.values()),
            "infractions_by_kind": dict(sorted(row.infractions.items())),
            "disqualified": row.disqualified,
            "separated_from_next": row.separated_from_next,
            "p_value_next": None if row.p_value_next is None else round(row.p_value_next, 5),
        }
        for row in standings.rows
    ]


def _sealing(store: TournamentStore, tournament_id: str) -> tuple[set[int], set[int] | None]:
    """What an export may show, as the web page does: (the boards whose deals, records and
    decisions it may show, the boards it may mention at all; None: every board).

    A deal is shown once its board is finished at every table, whatever the seating: before
    that it is still being played somewhere. While a safe tournament runs (it is sealed),
    nothing of another board is shown either: not its tables (their random ids would be tied
    to their board), not their scores, and the standings count only the finished boards; its
    seed (which deals them all) stays secret until the end."""
    done = store.boards_done(tournament_id)
    return done, (done if store.sealed(tournament_id) else None)


def crosstable_rows(standings: Standings) -> list[dict[str, Any]]:
    """Head to head: the mean of ``bot``'s score minus ``opponent``'s on the same cards."""
    return [
        {"bot": a, "opponent": b, "mean_difference": round(mean, 3), "comparisons": n}
        for (a, b), (mean, n) in sorted(standings.crosstable.items())
    ]


def export_tournament(store: TournamentStore, tournament_id: str, folder: Path) -> list[Path]:
    """Write ``<id>.json`` and three CSV files into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    tournament = store.tournament(tournament_id)
    settings = store.settings(tournament_id)
    shown, visible = _sealing(store, tournament_id)
    standings = standings_of(store, tournament_id, visible)
    tables = [(t, seats) for t, seats in store.tables(tournament_id)
              if visible is None or t.board_number in visible]
    names = bot_names(store, list(settings.bots))
    rows = standings_rows(standings, names)
    data = {
        "tournament": {
            "id": tournament.id,
            "name": tournament.name,
            "status": tournament.status.value,
            "seed": store.public_seed(tournament_id),
            "created_at": tournament.created_at.isoformat(),
            "finished_at": tournament.finished_at.isoformat() if tournament.finished_at else None,
            "settings": {**json.loads(settings.to_json()),
                         "seed": store.public_seed(tournament_id)},
            "score_unit": unit_json(settings.rules),
        },
        "bots": names,
        "boards": [
            {"number": b.number, "deal_seed": b.deal_seed, "dealer": b.dealer,
             "deal": json.loads(b.deal_json)}
            for b in store.boards(tournament_id) if b.number in shown
        ],
        "tables": [
            {
                "id": t.id, "board": t.board_number, "number": t.number,
                "status": t.status.value, "outcome": t.outcome,
                "seats": [{"seat": s.seat, "bot_id": s.bot_id, "scored": s.scored,
                           "score": s.score, "infractions": s.infractions} for s in seats],
                "record": (json.loads(t.record_json)
                           if t.record_json and t.board_number in shown else None),
            }
            for t, seats in tables
        ],
        "standings": rows,
        "crosstable": crosstable_rows(standings),
    }
    base = folder / tournament_id
    paths = [base.with_suffix(".json")]
    paths[0].write_text(json.dumps(data, indent=1, ensure_ascii=False))
    standings_csv = folder / f"{tournament_id}-standings.csv"
    with standings_csv.open("w", newline="") as handle:
        columns = [k for k in rows[0] if k != "infractions_by_kind"] if rows else ["rank"]
        writer = csv.DictWriter(handle, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    tables_csv = folder / f"{tournament_id}-tables.csv"
    with tables_csv.open("w", newline="") as handle:
        writer2 = csv.writer(handle)
        writer2.writerow(["table_id", "board", "number", "status", "outcome", "seat", "bot_id",
                          "bot", "scored", "score", "infractions"])
        for t, seats in tables:
            for s in seats:
                writer2.writerow([t.id, t.board_number, t.number, t.status.value, t.outcome,
                                  s.seat, s.bot_id, names.get(s.bot_id, s.bot_id), s.scored,
                                  s.score, s.infractions])
    decisions_csv = folder / f"{tournament_id}-decisions.csv"
    with decisions_csv.open("w", newline="") as handle:
        writer3 = csv.writer(handle)
        writer3.writerow(["table_id", "index", "seat", "action", "seconds", "infraction",
                          "reason"])
        for t, _ in tables:
            if t.board_number not in shown:
                continue  # the cards played tell the hands of a board still being played
            for d in store.decisions(t.id):
                writer3.writerow([d.table_id, d.index, d.seat, d.action, d.seconds,
                                  d.infraction or "", d.reason or ""])
    paths += [standings_csv, tables_csv, decisions_csv]
    return paths
