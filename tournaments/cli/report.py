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

from arena.games.base import Game, Record, ScoresMatches
from arena.games.display import display_of, score_unit, walk
from arena.games.french_tarot.display import seat_order as seat_order
from arena.storage.models import ArenaTable, TableSeat

from ..duplicate.matches import MatchStandings, match_standings
from ..duplicate.scoring import Standings
from ..duplicate.settings import PenaltyKind, ScoringMethod, TournamentSettings
from ..duplicate.stats import Interval, mean_interval
from ..store import TournamentStore
from .export import bot_names, crosstable_rows, standings_rows, unit_json


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
    unit = score_unit(settings.rules)
    columns += [(f"{unit.name} ±95%", "n", "rank", lambda r: _with_interval(r.per_board, 1)),
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
    unit = score_unit(settings.rules)
    lines.append(f"{unit.name} ±95%: mean {unit.long_name} per board against the others who "
                 "held the same cards (the score minus the mean of its group: same board, same "
                 "seat), with the half-width of its 95 % interval" + (
                     "; the ranking follows it." if not matchpoints else "."))
    lines.append("total: the sum of those differences over all the bot's results that were "
                 "compared (a result is compared when another bot held the same cards).")
    if not matchpoints:
        lines.append("MP %: the matchpoint percentage (100 best, 0 worst, ties share), for "
                     "reference.")
    p = settings.penalties
    if p.kind is PenaltyKind.POINTS:
        lines.append(f"penalty: {unit.name} taken off the raw scores for infractions "
                     f"({p.points} per infraction), before comparing.")
    elif p.kind is PenaltyKind.FORFEIT:
        lines.append(f"penalty: {unit.name} lost by taking the group's worst result for each "
                     "deal with an infraction (forfeit), before comparing.")
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
        "score_unit": unit_json(settings.rules),
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
    unit = score_unit(settings.rules)
    if not unit.in_points:
        console.print(f"[dim]Scores are in {unit.long_name} ({unit.per_point} make a "
                      "point).[/dim]", highlight=False)
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
def describe_deal(
    record: Record, state: Any = None, names: Sequence[str] | None = None,
    game: Game | None = None,
) -> list[str]:
    """A deal of any game trick by trick, as its display tells it: the deal (the seats' order,
    every hand, the cards dealt to no hand), every action that is not a card of a trick, each
    trick with its winner, then the result and how its score was made. ``names`` (by seat)
    label the seats; a hand no player holds (French Tarot's dummy) is said to be played by the
    player who decided for it. ``game``: the record's (default: the game of ``state``). A game
    whose display cannot step a deal gets its actions listed in its notation."""
    game = game or state.game
    assert game is not None
    display = display_of(game)
    walked = walk(game, record, display)
    if walked is None:
        return _list_deal(game, record, names or [])
    final = walked.state
    roles = display.roles(final)
    players = len(names) if names is not None else final.players
    deciders = walked.deciders

    def who(seat: int) -> str:
        if seat >= players or seat in deciders:
            label = f"the {roles[seat]}" if seat in roles else f"seat {seat}"
            by = deciders.get(seat)
            return label if by is None else f"{label} (played by {who(by)})"
        if names is None:
            return f"seat {seat}"
        return f"seat {seat} ({escape(names[seat])})"

    text = display.card_text
    lines = [f"[bold]{escape(display.title(final))}[/bold]"]
    lines += [f"  {escape(note)}" for note in display.notes(final)]
    for seat, hand in enumerate(walked.first.hands):
        lines.append(f"  {who(seat)}: " + " ".join(text(c) for c in hand))
    for fact in display.undealt(final):
        cards = [c for line in fact.lines for c in line.cards]
        lines.append(f"  {fact.title}: " + " ".join(text(c) for c in cards))
    for step in walked.steps:
        if step.completes is not None:
            trick = step.completes
            line = (f"trick {trick.number:2d}: "
                    + "  ".join(f"{s}:{text(c)}" for s, c in trick.cards)
                    + f"  -> seat {trick.winner}")
            lines.append(line + (f" ({escape(trick.note)})" if trick.note else ""))
        elif not step.plays:
            said = display.replay_line(final, step.seat, step.action, who(step.seat))
            if said is not None:
                lines.append(said)
    lines += result_lines(game, final, names)
    return lines


def result_lines(game: Game, state: Any, names: Sequence[str] | None = None) -> list[str]:
    """The result, with the scores in the game's unit, and how the score was made (every term
    the game's display gives)."""
    result = game.result(state)
    if result is None:
        return ["[bold]result:[/bold] the deal is not finished"]
    unit = score_unit(game)
    scores = result.scores
    in_unit = "" if unit.in_points else f" (in {unit.long_name})"
    if names is None:
        shown = ", ".join(f"{s:+d}" for s in scores)
        lines = [f"[bold]result:[/bold] {result.outcome.value}, scores [{shown}] by seat"
                 + in_unit]
    else:
        shown = ", ".join(f"{escape(names[s])} {v:+d}" for s, v in enumerate(scores)
                          if s < len(names))
        lines = [f"[bold]result:[/bold] {result.outcome.value}: {shown}{in_unit}"]
    lines += [f"  {escape(line)}" for line in display_of(game).breakdown(state)]
    return lines


def _list_deal(game: Game, record: Record, names: Sequence[str]) -> list[str]:
    """A deal of a game whose display cannot step it: the hands as dealt, every action by
    seat in the game's notation, the scores."""
    state = game.replay(record)
    shown = game.revealed(state)
    lines = [f"{escape(game.title)}, {state.players} players, dealer seat {state.dealer}"]
    for seat, hand in enumerate(shown.hands):
        cards = " ".join(game.card_name(card) for card in hand)
        who = f" ({escape(names[seat])})" if seat < len(names) else ""
        lines.append(f"  seat {seat}{who}: {cards}")
    if shown.undealt:
        lines.append(f"  not dealt: {' '.join(game.card_name(c) for c in shown.undealt)}")
    for index, (seat, action) in enumerate(record.actions):
        lines.append(f"{index + 1:3d}. seat {seat}: {game.format_action(action)}")
    lines += result_lines(game, state, names)
    return lines
