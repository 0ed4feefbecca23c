"""A finished deal as the replay viewer steps through it: one snapshot per action, for any game.

The record is stepped through the game's own rules (:func:`arena.games.display.walk`, the only
source of truth about hands and tricks), and the game's display says how its cards look, its
actions read and what its deal's facts are; the decision log adds each action's time and any
infraction (decision *i* is action *i*: every action of a deal is a decision). A game whose
display cannot step a deal gets its hands as dealt and the list of decisions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.games import Game
from arena.games.base import Record
from arena.games.display import CardFace, Display, TableView, Walk, display_of, walk
from arena.storage.models import Decision, TableSeat

__all__ = ["CardFace", "DealSummary", "deal_summary", "faces_of", "replay_page", "replay_steps"]


def faces_of(game: Game) -> list[CardFace]:
    """The faces of a game's cards, as its display draws them (its card names, without one)."""
    display = display_of(game)
    return [display.card_face(c) for c in range(game.deck_size)]


def _on_table(table: TableView, completes: Any) -> tuple[list[list[int]], int | None]:
    """The cards the table shows at a step: the trick being played, or the last one finished
    with its winner (the trick an action just completed stays in view)."""
    if completes is not None:
        return [list(p) for p in completes.cards], completes.winner
    if table.trick:
        return [list(p) for p in table.trick], None
    if table.tricks:
        last = table.tricks[-1]
        return [list(p) for p in last.cards], last.winner
    return [], None


def _snapshot(table: TableView, completes: Any = None) -> dict[str, Any]:
    won = [0] * len(table.hands)
    for trick in table.tricks:
        won[trick.winner] += 1
    trick, winner = _on_table(table, completes)
    return {"hands": [list(h) for h in table.hands], "trick": trick, "winner": winner,
            "won": won, "tricks": len(table.tricks)}


def replay_steps(
    game: Game, record: Record, decisions: Sequence[Decision], players: int | None = None,
) -> dict[str, Any] | None:
    """Everything the viewer needs, as plain JSON: the steps and the deal's public facts; None
    for a game whose display cannot step a deal. ``players``: the seats a bot holds (the
    others, like French Tarot's dummy, are played by one of them)."""
    display = display_of(game)
    walked = walk(game, record, display)
    if walked is None:
        return None
    return _viewer(display, walked, decisions, players)


def _viewer(
    display: Display, walked: Walk, decisions: Sequence[Decision], players: int | None
) -> dict[str, Any]:
    state = walked.state
    timing = {d.index: d for d in decisions}
    hands = len(walked.first.hands)
    players = hands if players is None else players
    steps = [{"index": None, "seat": None, "player": None, "text": "the deal",
              "seconds": None, "infraction": None, "reason": None, "completes": None,
              "note": "", **_snapshot(walked.first)}]
    for step in walked.steps:
        log = timing.get(step.index)
        completes = step.completes
        steps.append({
            "index": step.index, "seat": step.seat, "player": step.player, "text": step.text,
            "seconds": None if log is None else log.seconds,
            "infraction": None if log is None else log.infraction,
            "reason": None if log is None else log.reason,
            "completes": None if completes is None else completes.number,
            "note": "" if completes is None else completes.note,
            **_snapshot(step.table, completes),
        })
    roles = dict(display.roles(state))
    facts = [{"title": f.title,
              "lines": [{"text": line.text, "cards": list(line.cards), "seat": line.seat}
                        for line in f.lines]}
             for f in display.facts(state)]
    return {
        "players": players,
        "hands": hands,
        "dealer": state.dealer,
        "title": display.title(state),
        "notes": list(display.notes(state)),
        "roles": {str(seat): role for seat, role in roles.items()},
        "unheld": {str(seat): walked.deciders.get(seat) for seat in range(players, hands)},
        "steps": steps,
        "facts": facts,
        "tricks": [{"number": t.number, "leader": t.leader, "winner": t.winner,
                    "cards": [list(p) for p in t.cards], "note": t.note}
                   for t in walked.tricks],
        "breakdown": list(display.breakdown(state)),
    }


@dataclass(frozen=True, slots=True)
class ReplayPage:
    """What the table page adds to its context for a record shown."""

    viewer: dict[str, Any] | None
    """The stepping viewer (None: the game's display cannot step a deal)."""
    seat_names: list[str]
    """By hand: the bots' names, and for a hand no bot holds its role and who played it."""
    faces: list[CardFace]
    dealt: list[list[int]]
    """The hands as dealt (what a page without a viewer shows)."""

    def context(self, dumps: Any) -> dict[str, Any]:
        return {
            "viewer": self.viewer, "seat_names": self.seat_names, "faces": self.faces,
            "dealt": self.dealt,
            "viewer_json": None if self.viewer is None else dumps({
                "viewer": self.viewer,
                "faces": [[f.text, f.label, f.css] for f in self.faces],
                "names": self.seat_names,
            }),
        }


def replay_page(
    game: Game, record: Record | None, decisions: Sequence[Decision],
    seats: Sequence[TableSeat], names: dict[str, str],
) -> ReplayPage:
    """The table page's replay of ``record`` (None: not shown yet) at a table of ``seats``."""
    seat_names = [names.get(s.bot_id, s.bot_id) for s in seats]
    faces = faces_of(game)
    if record is None:
        return ReplayPage(None, seat_names, faces, [])
    viewer = replay_steps(game, record, decisions, len(seats))
    if viewer is None:
        display = display_of(game)
        dealt = [list(h) for h in display.table(game.replay(record)).hands]
        return ReplayPage(None, seat_names, faces, dealt)
    for seat in range(len(seats), viewer["hands"]):
        role = viewer["roles"].get(str(seat))
        by = viewer["unheld"].get(str(seat))
        label = f"the {role}" if role else f"seat {seat}"
        seat_names.append(label if by is None else f"{label} (played by {seat_names[by]})")
    return ReplayPage(viewer, seat_names, faces, viewer["steps"][0]["hands"])


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A played deal in a few facts, for the board page's side-by-side comparison: the same
    shape for every game, from what its display says (:mod:`arena.games.display`)."""

    headline: str | None
    """The deal's result in one line: the first line of the game's score breakdown
    (French Tarot: the contract, its taker and by how much it was made), else the outcome."""
    roles: dict[int, str]
    """What each seat was in the deal (taker, partner, dummy), by seat."""
    actions: dict[int, list[str]]
    """Each seat's actions that play no card to a trick (bids, a called king, discards), in
    words, by seat; actions of one verb in a row as one (``discards 5♥ 7♠ 8♣``)."""


def deal_summary(game: Game, record: Record) -> DealSummary:
    """``record`` of ``game`` summed up; a game whose display cannot step a deal gets its
    outcome and every action in words."""
    display = display_of(game)
    walked = walk(game, record, display)
    if walked is None:
        texts = [(seat, display.describe(action)) for seat, action in record.actions]
        outcome = getattr(record.result, "outcome", None)
        return DealSummary(None if outcome is None else str(outcome.value), {},
                           _by_seat(texts))
    state = walked.state
    lines = display.breakdown(state)
    result = game.result(state)
    outcome = None if result is None else str(result.outcome.value)
    return DealSummary(lines[0] if lines else outcome, dict(display.roles(state)),
                       _by_seat([(s.seat, s.text) for s in walked.steps if not s.plays]))


def _by_seat(texts: Sequence[tuple[int, str]]) -> dict[int, list[str]]:
    """Actions in words by seat, a seat's actions of one verb in a row joined: six discards
    read as one."""
    out: dict[int, list[str]] = {}
    last: dict[int, str] = {}
    for seat, text in texts:
        verb, _, rest = text.partition(" ")
        mine = out.setdefault(seat, [])
        if mine and rest and last.get(seat) == verb:
            mine[-1] += " " + rest
        else:
            mine.append(text)
        last[seat] = verb if rest else ""
    return out

