"""``tarot-arena ladder``: standing duplicate ladders (docs/ladder.md).

``create`` makes one, ``join`` and ``leave`` change who plays in it, ``serve`` plays every
ladder whenever enough of its bots are connected; ``standings`` shows the ratings, ``refit``
fits them anew from the stored results alone, ``final`` makes a competition of the top
entries on fresh boards. Every error is one line, as everywhere in ``tarot-arena``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from arena import games
from arena.games.display import score_unit
from arena.storage.bots import BotRegistry

from ..duplicate.settings import Seating, TournamentSettings
from ..ladder.rating import RatingModel
from ..ladder.settings import LadderSettings, VersionPolicy
from ..ladder.standings import LadderStandings, read, refit
from ..ladder.standings import as_json as standings_json
from ..storage.ladders import LadderStore
from ..store import TournamentStore
from . import game_options
from .report import id_column, new_table, print_fitting, text_column

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


@dataclass(frozen=True, slots=True)
class Helpers:
    """What the ladder's commands share with the others (given by :mod:`.commands`)."""

    store: Callable[[], TournamentStore]
    bot_ids: Callable[[BotRegistry, Sequence[str]], tuple[str, ...]]
    json_mode: Callable[[bool], None]
    print_json: Callable[[object], None]
    error: type[Exception]


def add_commands(app: typer.Typer, helpers: Helpers, console: Console) -> None:
    """Register ``ladder ...`` on the CLI ``app``."""
    ladder_app = typer.Typer(help="Standing duplicate ladders: bots join and leave, serve "
                                  "plays them, ratings from duplicate results.",
                             no_args_is_help=True)
    app.add_typer(ladder_app, name="ladder")

    def ladders() -> LadderStore:
        return LadderStore(helpers.store().engine)

    @ladder_app.command("create")
    def create(
        name: Annotated[str, typer.Argument(help="The ladder's name (letters, digits, . _ -).")],
        game: game_options.GameOption = None,
        players: game_options.PlayersOption = None,
        variant: game_options.VariantOption = game_options.CLASSIC,
        direction: game_options.DirectionOption = game_options.COUNTER_CLOCKWISE,
        setting: game_options.SettingOption = None,
        versions: Annotated[str, typer.Option(help=(
            "new-entry: a bot's new Hello.bot_version is a new entry, rated from scratch; "
            "continue: the bot keeps one entry across versions."))] = "new-entry",
        boards_per_hour: Annotated[int | None, typer.Option(
            help="At most this many boards per bot in any hour (default: no cap).")] = None,
        tables_per_board: Annotated[int, typer.Option(help=(
            "Tables a board is played at before it closes (and may be shown)."))] = 8,
        per_decision: Annotated[float, typer.Option(help="Seconds per decision.")] = 1.0,
        time_bank: Annotated[float, typer.Option(
            help="Extra seconds per seat and deal.")] = 0.0,
        model: Annotated[str, typer.Option(help=(
            "The rating: margin (the default), the score differences of duplicate "
            "comparisons, in the game's points per board; or wins, who outscored whom "
            "(Bradley-Terry, Elo scale)."))] = RatingModel.MARGIN.value,
        as_json: JsonOption = False,
    ) -> None:
        """Create a ladder; its boards come from a secret random seed."""
        helpers.json_mode(as_json)
        try:
            policy = VersionPolicy(versions)
        except ValueError:
            raise helpers.error(f"unknown --versions {versions!r}: expected new-entry or "
                                "continue") from None
        try:
            rating_model = RatingModel(model)
        except ValueError:
            raise helpers.error(f"unknown --model {model!r}: expected margin or wins"
                                ) from None
        rules = games.game(game)
        if players is None:
            players = rules.declaration.usual_players
        settings = LadderSettings(
            name=name, game=rules.name, players=players,
            game_settings=game_options.table_settings(variant, direction, setting or []),
            versions=policy, boards_per_hour=boards_per_hour,
            tables_per_board=tables_per_board, per_decision=per_decision, time_bank=time_bank,
            model=rating_model)
        row = ladders().create(settings)
        if as_json:
            helpers.print_json({"id": row.id, "name": row.name, "game": settings.game,
                                "players": settings.players, "model": settings.model.value,
                                "unit": settings.rating_unit})
            return
        console.print(f"ladder [bold]{escape(row.name)}[/bold] ({row.id}): {rules.title}, "
                      f"{players} players, rated on {_model_words(settings)}; it plays once "
                      f"{2 * players} bots have joined "
                      f"(tarot-arena ladder join {escape(row.name)} BOT...)", highlight=False)

    @ladder_app.command("list")
    def list_cmd(as_json: JsonOption = False) -> None:
        """List the ladders."""
        helpers.json_mode(as_json)
        store = ladders()
        rows = []
        for ladder in store.ladders():
            s = LadderStore.settings(ladder)
            members = [m for m in store.members(ladder.id) if m.active]
            rows.append({"name": ladder.name, "id": ladder.id, "game": s.game,
                         "players": s.players, "members": len(members),
                         "versions": s.versions.value})
        if as_json:
            helpers.print_json(rows)
            return
        if not rows:
            console.print("no ladders (tarot-arena ladder create NAME makes one)")
            return
        table = new_table("name", "id", "game", "players", "members", "versions")
        for r in rows:
            table.add_row(escape(str(r["name"])), str(r["id"]), str(r["game"]),
                          str(r["players"]), str(r["members"]), str(r["versions"]))
        console.print(table)

    def ladder_and_bots(name: str, bots: list[str]) -> tuple[LadderStore, Any, list[str]]:
        """The ladder by name and the bots by id or registered name, each refused in a line."""
        store = ladders()
        ladder = store.ladder(name)
        return store, ladder, list(helpers.bot_ids(BotRegistry(store.engine), bots))

    @ladder_app.command("join")
    def join(
        name: Annotated[str, typer.Argument(help="The ladder.")],
        bots: Annotated[list[str], typer.Argument(help="Bots by id or registered name.")],
    ) -> None:
        """Join bots to a ladder (again, after they left): serve seats them when connected."""
        store, ladder, ids = ladder_and_bots(name, bots)
        for bot_id in ids:
            joined = store.join(ladder.id, bot_id)
            console.print(f"{bot_id} {'joined' if joined else 'is already in'} "
                          f"{escape(ladder.name)}", highlight=False)
        settings = LadderStore.settings(ladder)
        active = [m for m in store.members(ladder.id) if m.active]
        if len(active) < 2 * settings.players:
            console.print(f"{len(active)} bots in {escape(ladder.name)}: it plays from "
                          f"{2 * settings.players} on (two per seat, or nothing is compared)",
                          highlight=False)

    @ladder_app.command("leave")
    def leave(
        name: Annotated[str, typer.Argument(help="The ladder.")],
        bots: Annotated[list[str], typer.Argument(help="Bots by id or registered name.")],
    ) -> None:
        """Take bots out of a ladder: their results stay, no table is seated for them."""
        store, ladder, ids = ladder_and_bots(name, bots)
        for bot_id in ids:
            left = store.leave(ladder.id, bot_id)
            console.print(f"{bot_id} {'left' if left else 'is not in'} {escape(ladder.name)}",
                          highlight=False)

    @ladder_app.command("standings")
    def standings_cmd(
        name: Annotated[str, typer.Argument(help="The ladder.")],
        as_json: JsonOption = False,
    ) -> None:
        """The ladder's entries by rating: interval, boards, last table, versions."""
        helpers.json_mode(as_json)
        standings = read(ladders(), name)
        if as_json:
            helpers.print_json(standings_json(standings))
            return
        print_standings(console, standings)

    @ladder_app.command("refit")
    def refit_cmd(
        name: Annotated[str, typer.Argument(help="The ladder.")],
        as_json: JsonOption = False,
    ) -> None:
        """Fit the ratings anew from the stored results alone, and store them."""
        helpers.json_mode(as_json)
        standings, change = refit(ladders(), name)
        if as_json:
            helpers.print_json({**standings_json(standings), "largest_change": change})
            return
        print_standings(console, standings)
        if change is None:
            console.print(f"refitted from {standings.results} results (the stored fit had "
                          "read fewer)")
        else:
            same = "the same numbers" if change < 0.05 else f"a change of {change:.1f} at most"
            console.print(f"refitted from {standings.results} results: {same} as stored")

    @ladder_app.command("final")
    def final(
        name: Annotated[str, typer.Argument(help="The ladder.")],
        top: Annotated[int, typer.Option(help="How many of the best bots play.")] = 8,
        boards: Annotated[int, typer.Option(help="Boards of the final.")] = 32,
        per_decision: Annotated[float | None, typer.Option(
            help="Seconds per decision (default: the ladder's).")] = None,
        as_json: JsonOption = False,
    ) -> None:
        """Make a competition of the ladder's top bots on fresh boards (serve plays it)."""
        helpers.json_mode(as_json)
        store = ladders()
        standings = read(store, name)
        settings = standings.settings
        chosen: list[str] = []
        for row in standings.rows:  # a bot's best entry; only bots still in the ladder
            if row.status in ("playing", "superseded") and row.bot_id not in chosen:
                chosen.append(row.bot_id)
        if top < 2 * settings.players:
            raise helpers.error(f"--top {top}: a final of {settings.players}-player tables "
                                f"needs at least {2 * settings.players} bots (every board at "
                                "two tables, never twice by one bot)")
        if len(chosen) < top:
            raise helpers.error(f"--top {top}: ladder {standings.ladder.name} has "
                                f"{len(chosen)} bots with results still in it")
        final_settings = TournamentSettings(
            name=f"{standings.ladder.name} final", bots=tuple(chosen[:top]),
            seating=Seating.COMPETITION, players=settings.players, boards=boards,
            seed=secrets.randbits(64),
            per_decision=settings.per_decision if per_decision is None else per_decision,
            time_bank=settings.time_bank, game=settings.game,
            game_settings=settings.game_settings)
        tid = helpers.store().create(final_settings)
        if as_json:
            helpers.print_json({"id": tid, "bots": list(final_settings.bots),
                                "boards": boards})
            return
        console.print(f"tournament [bold]{tid}[/bold]: the final of {escape(name)}, "
                      f"{top} bots, {boards} boards, competition seating (tarot-arena serve "
                      "plays it)", highlight=False)


def print_standings(console: Console, standings: LadderStandings) -> None:
    s = standings.settings
    console.print(f"ladder [bold]{escape(standings.ladder.name)}[/bold]: "
                  f"{s.form} · {standings.tables} tables, "
                  f"{standings.boards} boards ({len(standings.closed)} closed) · ratings "
                  f"on {_model_words(s)}, with 95 % intervals", highlight=False)
    if not standings.rows:
        active = sum(m.active for m in standings.members)
        console.print(f"no results yet ({active} bots joined; it plays from "
                      f"{2 * s.players} connected)")
        return
    names = [r.name for r in standings.rows]

    def layout(wide: bool) -> Any:
        table = new_table("#")
        text_column(table, "bot", values=names)
        if wide:
            id_column(table, "bot id", [r.bot_id for r in standings.rows])
        for header in (f"rating ({s.rating_unit})", "interval", "boards"):
            table.add_column(header, justify="right")
        text_column(table, "versions", values=[", ".join(r.versions) for r in standings.rows])
        table.add_column("last seen")
        table.add_column("status")
        for r in standings.rows:
            apart = "" if r.separated_from_next is not True else " >"
            cells = [str(r.rank), escape(r.name)]
            if wide:
                cells.append(r.bot_id)
            cells += [f"{_number(r.rating.rating, s)}{apart}",
                      f"{_number(r.rating.low, s)}..{_number(r.rating.high, s)}",
                      str(r.boards),
                      escape(", ".join(v or "-" for v in r.versions)),
                      r.last_seen.strftime("%Y-%m-%d %H:%M") if r.last_seen else "-",
                      r.status]
            table.add_row(*cells)
        return table

    print_fitting(console, lambda: layout(True), lambda: layout(False))
    console.print("> : its interval does not overlap the next one's", style="dim")



def _model_words(s: LadderSettings) -> str:
    """The ladder's rating in words, its unit named."""
    if s.model is RatingModel.WINS:
        return "wins (Bradley-Terry, Elo scale, field's mean 1500)"
    return f"margins ({score_unit(s.rules).long_name} per board, against the field's mean)"


def _number(value: float, s: LadderSettings) -> str:
    """A rating as the table shows it: whole Elo points, margins to a tenth with their sign."""
    return f"{value:.0f}" if s.model is RatingModel.WINS else f"{value:+.1f}"
