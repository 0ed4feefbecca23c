"""What the CLI prints: standings tables and deals trick by trick."""

from __future__ import annotations

import math

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from arena.rules import DealRecord, GameState, card_symbol
from arena.rules.actions import (
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
)

from .duplicate import Standings
from .export import bot_names
from .store import TournamentStore


def print_standings(
    console: Console, store: TournamentStore, tournament_id: str, standings: Standings
) -> None:
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    progress = store.progress(tournament_id)
    table = Table(title=f"{escape(settings.name)} ({tournament_id}): {progress.done}/"
                        f"{progress.total} tables, scoring {standings.method.value}")
    for column in ("rank", "bot", "mean/board", "95% interval", "total", "MP %", "boards",
                   "infractions", "vs next"):
        # bot names are never cut short, even on a narrow terminal
        table.add_column(column, justify="left" if column == "bot" else "right",
                         no_wrap=column == "bot")
    for row in standings.rows:
        interval = row.per_board
        ci = ("n/a" if not math.isfinite(interval.half_width)
              else f"[{interval.low:+.1f}, {interval.high:+.1f}]")
        sep = {True: "[green]significant[/green]", False: "[dim]not significant[/dim]",
               None: ""}[row.separated_from_next]
        infractions = ", ".join(f"{k} {v}" for k, v in sorted(row.infractions.items())) or "0"
        name = escape(names.get(row.bot_id, row.bot_id)) + (" [red](DQ)[/red]" if row.disqualified
                                                     else "")
        table.add_row(str(row.rank), name, f"{interval.mean:+.1f}", ci, f"{row.total:+.0f}",
                      f"{row.matchpoint_pct:.1f}", str(row.boards), infractions, sep)
    console.print(table)
    if not standings.rows:
        console.print("[dim]no table finished yet: no standings[/dim]")


def _card(card: int) -> str:
    """``card_symbol``, with trumps as ``T21`` rather than a bare number (``1:1`` in a trick
    line would not say which is the seat and which the card)."""
    symbol = card_symbol(card)
    return f"T{symbol}" if symbol.isdigit() else symbol


def _poignee_line(
    record: DealRecord, state: GameState, seat: int, action: DeclarePoignee
) -> str:
    """The trumps shown, and those the player chose to keep hidden (the deal is over: a replay
    may tell them)."""
    shown = next(p.cards for p in state.poignees if p.seat == seat)
    hidden = [a.card for s, a in record.actions if s == seat and isinstance(a, HideTrump)]
    line = (f"seat {seat} shows a {action.level.label} poignée: "
            + " ".join(_card(c) for c in shown))
    if hidden:
        line += " (keeps " + " ".join(_card(c) for c in sorted(hidden, reverse=True)) + " hidden)"
    return line


def describe_deal(record: DealRecord, state: GameState) -> list[str]:
    n = record.options.players
    deal = record.deal
    lines = [f"[bold]{record.options.players} players, dealer seat {deal.dealer}[/bold]"]
    for seat, hand in enumerate(deal.hands):
        lines.append(f"  seat {seat}: " + " ".join(_card(c) for c in hand))
    lines.append("  chien:  " + " ".join(_card(c) for c in deal.chien))
    trick: list[str] = []
    tricks = 0
    for seat, action in record.actions:
        if isinstance(action, Pass | Bid):
            lines.append(f"seat {seat}: {action}")
        elif isinstance(action, CallCard):
            lines.append(f"seat {seat} calls {_card(action.card)}")
        elif isinstance(action, Discard):
            lines.append(f"seat {seat} discards {_card(action.card)}")
        elif isinstance(action, ChelemChoice):
            if action.announce:
                lines.append(f"seat {seat} announces a chelem")
        elif isinstance(action, DeclarePoignee):
            lines.append(_poignee_line(record, state, seat, action))
        elif isinstance(action, Play):
            trick.append(f"{seat}:{_card(action.card)}")
            if len(trick) == n:
                winner = state.tricks[tricks].winner
                tricks += 1
                lines.append(f"trick {tricks:2d}: " + "  ".join(trick) + f"  -> seat {winner}")
                trick = []
    result = state.result
    lines.append(f"[bold]result:[/bold] {result.outcome.value}, scores {list(result.scores)}")
    if result.summary is not None and result.breakdown is not None:
        s, b = result.summary, result.breakdown
        lines.append(
            f"  {s.contract.label} by seat {result.taker}: {float(s.taker_points):g} points, "
            f"{s.bouts} bouts, target {b.target}, " + ("made" if b.won else "failed")
            + f" by {b.margin}"
        )
    return lines


