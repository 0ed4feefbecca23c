"""What the CLI prints: standings, the head-to-head crosstable, tables, deals trick by trick.

Every table is laid out to stay readable at 80 columns: ids are never cut (their columns do not
wrap, and a table too wide for the terminal switches to a narrow layout), other cells wrap
rather than end in an ellipsis, and headers are short with a legend under the table saying what
each column means. The same data is offered as JSON (``*_json``) for scripts.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table

from arena.games.base import ScoresMatches
from arena.games.french_tarot import DealRecord, GameState, card_symbol
from arena.games.french_tarot.actions import (
    Bid,
    CallCard,
    ChelemChoice,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
)
from arena.games.french_tarot.game import Direction
from arena.storage.models import ArenaTable, TableSeat

from ..duplicate.matches import MatchStandings, match_standings
from ..duplicate.scoring import Standings
from ..duplicate.settings import PenaltyKind, ScoringMethod, TournamentSettings
from ..duplicate.stats import Interval, mean_interval
from ..store import TournamentStore
from .export import bot_names, crosstable_rows, standings_rows


# ------------------------------------------------------------------------------ layout
def new_table(*headers: str, title: str | None = None) -> Table:
    """A compact table: no outer padding, a rule under the header, no vertical borders."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), title=title,
                  title_justify="left")
    for header in headers:
        table.add_column(header)
    return table


def id_column(table: Table, header: str, ids: Sequence[str]) -> None:
    """A column of ids: never wrapped, never shortened (so they can be copied)."""
    table.add_column(header, no_wrap=True, overflow="fold",
                     min_width=max([len(header), *map(len, ids)]))


def text_column(table: Table, header: str, *, justify: Any = "left", values: Sequence[str] = (),
                most: int = 20) -> None:
    """Free text (names, lists): wraps at words, folds a long word; never an ellipsis. It
    keeps the width of its longest value up to ``most`` columns, so that narrow numbers do not
    squeeze names into slivers."""
    width = max([len(header), *(min(len(v), most) for v in values)])
    table.add_column(header, overflow="fold", justify=justify, min_width=width)


def number_column(table: Table, header: str) -> None:
    table.add_column(header, no_wrap=True, overflow="fold", justify="right",
                     min_width=len(header))


def fits(console: Console, table: RenderableType) -> bool:
    """Whether ``table`` fits the console without squeezing a column below its longest word
    (the id and number columns then stay whole), as it is really drawn.

    Both are checked: rich's measure of the narrowest it can be, and the width of the lines it
    draws at the console's width. They differ: to fit, rich narrows the widest text columns
    first, below their minimum width, then widens them back to it, and a table measured at 78
    columns is drawn at 81 (and cut at 80: "ahea" for "ahead")."""
    wide = console.options.update_width(10_000)
    if Measurement.get(console, wide, table).minimum > console.width:
        return False
    return drawn_width(console, table) <= console.width


def drawn_width(console: Console, renderable: RenderableType) -> int:
    """The widest line ``renderable`` draws on ``console`` (before any cropping)."""
    lines = Segment.split_lines(console.render(renderable, console.options))
    return max((Segment.get_line_length(line) for line in lines), default=0)


def print_fitting(console: Console, *layouts: Callable[[], RenderableType]) -> None:
    """Print the first layout that fits (the last one in any case)."""
    for make in layouts[:-1]:
        table = make()
        if fits(console, table):
            console.print(table)
            return
    console.print(layouts[-1]())


# --------------------------------------------------------------------------- standings
def _mp_intervals(standings: Standings) -> dict[str, Interval]:
    """Each bot's matchpoint percentage per board and its 95 % interval (the board is the
    unit, as for the points)."""
    per_board: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in standings.scored:
        per_board[s.entry.bot_id][s.entry.board].append(s.matchpoints)
    return {
        bot: mean_interval([math.fsum(v) / len(v) for _, v in sorted(boards.items())])
        for bot, boards in per_board.items()
    }


def penalty_points(standings: Standings) -> dict[str, float]:
    """Points each bot lost to penalties: raw scores minus the scores compared."""
    lost: dict[str, float] = defaultdict(float)
    for s in standings.scored:
        lost[s.entry.bot_id] += s.entry.score - s.adjusted
    return dict(lost)


def _with_interval(interval: Interval, digits: int, sign: str = "+") -> str:
    mean = f"{interval.mean:{sign}.{digits}f}"
    if not math.isfinite(interval.half_width):
        return f"{mean} ±n/a"
    return f"{mean} ±{interval.half_width:.{digits}f}"


def print_standings(
    console: Console, store: TournamentStore, tournament_id: str, standings: Standings
) -> None:
    """The standings table, a legend saying what each column means, then the crosstable."""
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    progress = store.progress(tournament_id)
    matchpoints = standings.method is ScoringMethod.MATCHPOINTS
    penalised = settings.penalties.kind is not PenaltyKind.NONE
    console.print(f"[bold]{escape(settings.name)}[/bold] ({tournament_id}): {progress.done}/"
                  f"{progress.total} tables, scoring {standings.method.value}")
    if not standings.rows:
        console.print("[dim]no table finished yet: no standings[/dim]")
        return
    mp = _mp_intervals(standings)
    lost = penalty_points(standings)
    # (header, kind, cell for a row); kind: "n" number, "t" text; "rank"/"play" say which
    # table of the narrow layout the column goes to (both repeat # and bot)
    Column = tuple[str, str, str, Callable[[Any], str]]
    columns: list[Column] = [
        ("#", "n", "both", lambda r: str(r.rank)),
        ("bot", "t", "both", lambda r: escape(names.get(r.bot_id, r.bot_id))
         + (" [red](DQ)[/red]" if r.disqualified else "")),
    ]
    if matchpoints:
        columns.append(("MP % ±95%", "n", "rank", lambda r: _with_interval(
            mp.get(r.bot_id, Interval(0.0, math.inf, 0)), 1, "")))
    columns += [("points ±95%", "n", "rank", lambda r: _with_interval(r.per_board, 1)),
                ("total", "n", "rank", lambda r: f"{r.total:+.0f}")]
    if not matchpoints:
        columns.append(("MP %", "n", "play", lambda r: f"{r.matchpoint_pct:.1f}"))
    columns.append(("boards", "n", "play", lambda r: str(r.boards)))
    if penalised:
        columns.append(("penalty", "n", "play", lambda r: f"{-lost[r.bot_id]:+.0f}"
                        if lost.get(r.bot_id) else "0"))
    columns += [
        ("infractions", "t", "play", lambda r: ", ".join(
            f"{k} {v}" for k, v in sorted(r.infractions.items())) or "0"),
        ("ahead", "n", "rank", lambda r: {True: "[green]yes[/green]", False: "[dim]no[/dim]",
                                          None: ""}[r.separated_from_next]),
    ]

    def build(part: str | None) -> Table:
        table = new_table()
        chosen = [c for c in columns if part is None or c[2] in ("both", part)]
        for header, kind, _, _ in chosen:
            if header == "bot":
                text_column(table, header, values=list(names.values()), most=18)
            elif kind == "t":
                text_column(table, header)
            else:
                number_column(table, header)
        for row in standings.rows:
            table.add_row(*(cell(row) for _, _, _, cell in chosen))
        return table

    print_fitting(console, lambda: build(None), lambda: Group(build("rank"), "", build("play")))
    for line in standings_legend(settings, matchpoints):
        console.print(f"[dim]{line}[/dim]", highlight=False)
    print_crosstable(console, standings, names)


def standings_legend(settings: TournamentSettings, matchpoints: bool) -> list[str]:
    """What the columns mean; the CLI prints it under the standings."""
    lines = []
    if matchpoints:
        lines.append("Ranked by MP %: the mean matchpoint percentage of the bot's results "
                     "(100 best, 0 worst of those who held the same cards), ±95 % interval "
                     "over boards. Points columns are shown for reference.")
    lines.append("points ±95%: mean points per board against the others who held the same "
                 "cards (the score minus the mean of its group: same board, same seat), with "
                 "the half-width of its 95 % interval" + ("; the ranking follows it." if not
                                                           matchpoints else "."))
    lines.append("total: the sum of those differences over all the bot's results that were "
                 "compared (a result is compared when another bot held the same cards).")
    if not matchpoints:
        lines.append("MP %: the matchpoint percentage (100 best, 0 worst, ties share), for "
                     "reference.")
    p = settings.penalties
    if p.kind is PenaltyKind.POINTS:
        lines.append(f"penalty: points taken off the raw scores for infractions ({p.points} "
                     "per infraction), before comparing.")
    elif p.kind is PenaltyKind.FORFEIT:
        lines.append("penalty: points lost by taking the group's worst result for each deal "
                     "with an infraction (forfeit), before comparing.")
    if p.disqualify_after is not None:
        lines.append(f"(DQ) marks a bot disqualified after {p.disqualify_after} infractions: "
                     "its results are not compared.")
    lines.append("ahead: whether the bot is significantly ahead of the next one (paired t-test "
                 "over their common boards, 5 %).")
    return lines


def print_crosstable(console: Console, standings: Standings, names: dict[str, str]) -> None:
    """Head to head: the mean difference of the row bot's scores minus the column bot's on
    the same cards (same board, same seat), and how many comparisons it rests on."""
    if not standings.crosstable:
        return
    order = [row.bot_id for row in standings.rows]
    console.print()
    console.print("[bold]Head to head[/bold]: mean score of the row bot minus the column bot's "
                  "on the same cards (comparisons in brackets).", highlight=False)

    def matrix() -> Table:
        table = new_table()
        text_column(table, "bot", values=[f"#{len(order)} {names.get(b, b)}" for b in order],
                    most=20)
        for index in range(len(order)):
            number_column(table, f"#{index + 1}")
        for index, a in enumerate(order):
            cells = [f"#{index + 1} " + escape(names.get(a, a))]
            for b in order:
                pair = standings.crosstable.get((a, b))
                cells.append("" if a == b or pair is None
                             else f"{pair[0]:+.1f} ({pair[1]})")
            table.add_row(*cells)
        return table

    def pairs() -> Table:
        table = new_table()
        text_column(table, "bot", values=[names.get(b, b) for b in order])
        text_column(table, "against", values=[names.get(b, b) for b in order])
        number_column(table, "mean diff.")
        number_column(table, "compared")
        for i, a in enumerate(order):
            for b in order[i + 1:]:
                pair = standings.crosstable.get((a, b))
                if pair is not None:
                    table.add_row(escape(names.get(a, a)), escape(names.get(b, b)),
                                  f"{pair[0]:+.1f}", str(pair[1]))
        return table

    print_fitting(console, matrix, pairs)


def standings_json(
    store: TournamentStore, tournament_id: str, standings: Standings
) -> dict[str, Any]:
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    progress = store.progress(tournament_id)
    lost = penalty_points(standings)
    mp = _mp_intervals(standings)
    rows = standings_rows(standings, names)
    for row in rows:
        row["penalty_points"] = round(lost.get(row["bot_id"], 0.0), 3)
        interval = mp.get(row["bot_id"])
        finite = interval is not None and math.isfinite(interval.half_width)
        row["matchpoint_ci95_low"] = round(interval.low, 3) if finite and interval else None
        row["matchpoint_ci95_high"] = round(interval.high, 3) if finite and interval else None
    out: dict[str, Any] = {
        "tournament": tournament_id,
        "name": settings.name,
        "scoring": standings.method.value,
        "tables_done": progress.done,
        "tables_total": progress.total,
        "standings": rows,
        "crosstable": crosstable_rows(standings),
    }
    matches = _matches(store, tournament_id)
    if matches is not None:
        out["matches"] = {
            "deals": matches.deals,
            "standings": [{"bot_id": r.bot_id, "bot": names.get(r.bot_id, r.bot_id),
                           "played": r.played, "won": round(r.won, 3),
                           "won_pct": round(r.won_pct, 1)} for r in matches.rows],
            "matches": [{"boards": list(m.boards), "table": m.table, "bots": list(m.bots),
                         "points": list(m.points), "winners": list(m.winners)}
                        for m in matches.matches],
        }
    return out


def print_matches(console: Console, store: TournamentStore, tournament_id: str) -> None:
    """A game's own reckoning of matches (Tre e Venticinque: a game of three deals), if it has
    one: how many each bot played and won."""
    matches = _matches(store, tournament_id)
    if matches is None:
        return
    settings = store.settings(tournament_id)
    names = bot_names(store, list(settings.bots))
    console.print()
    console.print(f"[bold]{settings.rules.title}'s own reckoning[/bold]: a match is "
                  f"{matches.deals} deals, one per dealer, by the same bots in the same seats "
                  f"({len(matches.matches)} finished)")
    if not matches.rows:
        console.print("[dim]no match finished yet[/dim]")
        return
    table = new_table()
    text_column(table, "bot", values=list(names.values()), most=18)
    for header in ("played", "won", "won %"):
        number_column(table, header)
    for row in matches.rows:
        table.add_row(escape(names.get(row.bot_id, row.bot_id)), str(row.played),
                      f"{row.won:g}", f"{row.won_pct:.1f}")
    console.print(table)


def _matches(store: TournamentStore, tournament_id: str) -> MatchStandings | None:
    """The game's matches; None (without reading a record) for a game without matches."""
    game = store.settings(tournament_id).rules
    if not isinstance(game, ScoresMatches):
        return None
    return match_standings(game, store.played_deals(tournament_id))


# ------------------------------------------------------------------------------ tables
NOT_COMPARED = "*"


def print_tables(
    console: Console, settings: TournamentSettings, names: dict[str, str],
    tables: list[tuple[ArenaTable, list[TableSeat]]],
) -> None:
    """One row per table: its id (for ``replay``), board, status and each seat's bot and score.
    Too wide for the terminal, the seats go one per line in a single column."""
    ids = [t.id for t, _ in tables]

    def seat_text(seat: TableSeat) -> str:
        return (escape(names.get(seat.bot_id, seat.bot_id))
                + ("" if seat.score is None else f" {seat.score:+d}")
                + ("" if seat.scored else NOT_COMPARED))

    def wide() -> Table:
        table = new_table()
        id_column(table, "table id", ids)
        number_column(table, "board")
        text_column(table, "status")
        for s in range(settings.players):
            text_column(table, f"seat {s}")
        for row, seats in tables:
            table.add_row(row.id, str(row.board_number), row.status.value,
                          *(seat_text(s) for s in seats))
        return table

    def narrow() -> Table:
        table = new_table()
        id_column(table, "table id", ids)
        number_column(table, "board")
        text_column(table, "status")
        text_column(table, "seats")
        for row, seats in tables:
            table.add_row(row.id, str(row.board_number), row.status.value,
                          "\n".join(f"{s.seat}: {seat_text(s)}" for s in seats))
        return table

    print_fitting(console, wide, narrow)
    if any(not s.scored for _, seats in tables for s in seats):
        console.print(f"[dim]{NOT_COMPARED} not compared: the seat is filled so that the table "
                      "can be played (a gauntlet's reference or filler beside the candidate), "
                      "but its score counts in no standings: the reference is compared at its "
                      "own tables.[/dim]", highlight=False)


def tables_json(
    names: dict[str, str], tables: list[tuple[ArenaTable, list[TableSeat]]]
) -> list[dict[str, Any]]:
    return [
        {
            "id": t.id, "board": t.board_number, "number": t.number, "status": t.status.value,
            "outcome": t.outcome,
            "seats": [{"seat": s.seat, "bot_id": s.bot_id, "bot": names.get(s.bot_id, s.bot_id),
                       "score": s.score, "scored": s.scored, "infractions": s.infractions}
                      for s in seats],
        }
        for t, seats in tables
    ]


# ------------------------------------------------------------------------------ replay
def _card(card: int) -> str:
    """``card_symbol``, with trumps as ``T21`` rather than a bare number (``1:1`` in a trick
    line would not say which is the seat and which the card)."""
    symbol = card_symbol(card)
    return f"T{symbol}" if symbol.isdigit() else symbol


def _poignee_line(
    record: DealRecord, state: GameState, seat: int, action: DeclarePoignee, who: str
) -> str:
    """The trumps shown, and those the player chose to keep hidden (the deal is over: a replay
    may tell them)."""
    shown = next(p.cards for p in state.poignees if p.seat == seat)
    hidden = [a.card for s, a in record.actions if s == seat and isinstance(a, HideTrump)]
    line = (f"{who} shows a {action.level.label} poignée: "
            + " ".join(_card(c) for c in shown))
    if hidden:
        line += " (keeps " + " ".join(_card(c) for c in sorted(hidden, reverse=True)) + " hidden)"
    return line


def seat_order(players: int, direction: Direction) -> str:
    """How the seats sit around the table: play always goes 0, 1, 2, ... (the turn order);
    the direction only says which way round that is."""
    order = " → ".join(str(s) for s in range(players))
    return f"play goes {order}, {direction.value} around the table"


def describe_deal(
    record: DealRecord, state: GameState, names: Sequence[str] | None = None
) -> list[str]:
    """A deal trick by trick. ``names`` (by seat) label the seats; seat numbers are the turn
    order whatever the table's direction, which the header states. With two players, the
    dummy's hand is the third seat's, and its cards are said to be played by the defender."""
    n = record.options.seats
    deal = record.deal
    dummy = state.dummy_seat

    def who(seat: int) -> str:
        if seat == dummy:
            defender = state.defender
            return "the dummy" if defender is None else f"the dummy (played by {who(defender)})"
        if names is None:
            return f"seat {seat}"
        return f"seat {seat} ({escape(names[seat])})"

    players = (f"{record.options.players} players with the dummy (seat {dummy})"
               if dummy is not None else f"{n} players")
    lines = [f"[bold]{players}, dealer seat {deal.dealer}[/bold]"
             + (", beginner variant" if record.options.beginner else ""),
             f"  {seat_order(n, record.options.direction)}"]
    for seat, hand in enumerate(deal.hands):
        lines.append(f"  {who(seat)}: " + " ".join(_card(c) for c in hand))
    lines.append("  chien: " + " ".join(_card(c) for c in deal.chien))
    trick: list[str] = []
    tricks = 0
    for seat, action in record.actions:
        if isinstance(action, Pass | Bid):
            lines.append(f"{who(seat)}: {action}")
        elif isinstance(action, CallCard):
            lines.append(f"{who(seat)} calls {_card(action.card)}")
        elif isinstance(action, Discard):
            lines.append(f"{who(seat)} discards {_card(action.card)}")
        elif isinstance(action, ChelemChoice):
            if action.announce:
                lines.append(f"{who(seat)} announces a chelem")
        elif isinstance(action, DeclarePoignee):
            lines.append(_poignee_line(record, state, seat, action, who(seat)))
        elif isinstance(action, Play):
            trick.append(f"{seat}:{_card(action.card)}")
            if len(trick) == n:
                winner = state.tricks[tricks].winner
                tricks += 1
                lines.append(f"trick {tricks:2d}: " + "  ".join(trick) + f"  -> seat {winner}")
                trick = []
    lines += result_lines(state, names)
    return lines


def result_lines(state: GameState, names: Sequence[str] | None = None) -> list[str]:
    """The result, and how the score was made: every term of X, the value per defender."""
    result = state.result
    if names is None:
        scores = ", ".join(f"{s:+d}" for s in result.scores)
        lines = [f"[bold]result:[/bold] {result.outcome.value}, scores [{scores}] by seat"]
    else:
        scores = ", ".join(f"{escape(names[s])} {v:+d}" for s, v in enumerate(result.scores))
        lines = [f"[bold]result:[/bold] {result.outcome.value}: {scores}"]
    if result.summary is None or result.breakdown is None:
        return lines
    s, b = result.summary, result.breakdown
    lines.append(
        f"  {s.contract.label} by seat {result.taker}: {float(s.taker_points):g} points, "
        f"{s.bouts} bouts, target {b.target}, " + ("made" if b.won else "failed")
        + f" by {b.margin}"
    )
    terms = [f"contract {b.contract_points:+d} ((25 + {b.margin}) x {s.contract.multiplier})"]
    if b.petit_au_bout:
        terms.append(f"petit au bout {b.petit_au_bout:+d}")
    if b.poignee:
        terms.append(f"poignée {b.poignee:+d}")
    if b.chelem:
        terms.append(f"chelem {b.chelem:+d}")
    if state.dummy_seat is not None:
        lines.append(f"  X: {'; '.join(terms)}; total {b.per_defender:+d} (settled between two: "
                     f"the taker scores +2X, the defender -2X)")
    else:
        lines.append(f"  X per defender: {'; '.join(terms)}; total {b.per_defender:+d} (each "
                     f"defender scores -X)")
    lines += [f"  {line}" for line in chelem_explained(s.chelem_announced, s.chelem, b.chelem)]
    return lines


def chelem_explained(announced: bool, side: Any, bonus: int) -> list[str]:
    """Why a chelem term is there: +400 announced and made, +200 made unannounced, -200
    announced and failed, and a further -200 when the defence took every trick."""
    from arena.games.french_tarot.scoring import Side

    lines = []
    if side is Side.TAKER:
        lines.append(f"chelem {'announced and ' if announced else 'unannounced, '}made: "
                     f"{'+400' if announced else '+200'}")
    elif announced:
        lines.append("chelem announced and not made: -200 (the taker's side pays it to each "
                     "defender, whatever the contract's result)")
    if side is Side.DEFENCE:
        lines.append("the defence took every trick: each defender gains 200 more")
    return lines if bonus else []
