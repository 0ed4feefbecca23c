"""``tarot-arena compare CANDIDATE BASELINE``: is the candidate better than the baseline?

Regression testing of bots with a sequential test on duplicate boards; how a compare is played
and stored is :mod:`tournaments.play.compare`, the statistics :mod:`tournaments.duplicate.sprt`.

- **Local** (``--local``): both bots are ``module:Class`` SDK bots played by workers
  (:mod:`tournaments.work`) on the in-process arena (:class:`clients.local.LocalArena`,
  imported only then): in this process (``--jobs 1``), on ``--jobs N`` processes of this
  machine (default: every core), or (``--workers-only``, on PostgreSQL) by ``tarot-arena
  worker`` processes anywhere: for a CI job.
  They are registered in the database under their spec (owner ``compare --local``) so that the
  stored tables name them; their tokens are never shown (nobody connects as them).
- **Live**: both are registered bots that connect over gRPC as in any tournament; the arena
  serves and the same runner plays the tables on it.
- **Imposed boards** (``--local --imposed``): every table of a board plays the auction the
  baseline bids, so that only card play is compared (:mod:`tournaments.play.imposed`).
- **Another filler** (``--filler BOT``, same form as the candidate's): the other seats are
  that bot's for the candidate and the baseline alike (and, imposed, it bids the auctions), so
  that bots that never bid can be compared.
- **Any game** (``--game``, ``--players``, ``--setting``, as for ``tournament create``): French
  Tarot at 4 players by default; every bot must play the game (a local one is asked, a live
  one says so when it connects). Imposed boards need a game with an auction.
- **Nothing compared**: boards that come out even tell the bots apart no more than boards
  never played; a test whose boards all came out even (every deal passed out, or the bots
  played alike) is inconclusive and says why, with what to do (:class:`Inconclusive`).

A compare killed mid-way and run again with the same ``--id`` resumes where it stopped. Once
decided, the tournament is finished and its remaining tables are left unplayed (``tournament
tables`` shows them pending); ``standings``, ``export`` and ``replay`` work on it as on any
tournament.
"""

from __future__ import annotations

import functools
import json
import math
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import trio
import typer
from rich.console import Console
from rich.markup import escape

from arena import games
from arena.games.display import game_form
from arena.storage.bots import BotRegistry, UnknownBotError
from arena.storage.models import TournamentStatus

from ..duplicate.seatings import tables_per_board
from ..duplicate.settings import TournamentSettings
from ..duplicate.sprt import (
    DEFAULT_MIN_BOARDS,
    Inconclusive,
    SprtError,
    SprtSettings,
    Status,
    Units,
    Verdict,
)
from ..play.compare import (
    CompareConfig,
    CompareError,
    StatusFn,
    cancelled_error,
    check_imposable,
    create,
    load,
    local_bot_ids,
    outcomes,
    run_compare,
)
from ..play.runner import LEASE
from ..play.stopping import until_told_to_stop
from ..store import TournamentStore, UnknownTournamentError
from ..work.processes import default_jobs
from . import game_options
from .bots import load_bot_spec

if TYPE_CHECKING:
    from clients.sdk import Bot

EXIT_ACCEPTED = 0
EXIT_ERROR = 1
"""Any error: bad input, the database (one line on stderr)."""
EXIT_USAGE = 2
"""A command line the parser refuses (unknown option, missing argument), or a bot it names that
cannot be loaded (a module that does not import, ...), as in every command."""
EXIT_REJECTED = 3
EXIT_INCONCLUSIVE = 4
EXIT_CODES = {Verdict.ACCEPTED: EXIT_ACCEPTED, Verdict.REJECTED: EXIT_REJECTED,
              Verdict.INCONCLUSIVE: EXIT_INCONCLUSIVE}

LOCAL_OWNER = "compare --local"
DEFAULT_BOUNDS = (0.0, 0.2)
"""In per-board standard deviations: about 130 boards when the candidate is that much better."""



def sprt_settings(
    *, bounds: str | None, units: str, non_regression: float | None, alpha: float,
    beta: float, max_boards: int, min_boards: int,
) -> SprtSettings:
    """The test the command line asks for, each mistake named."""
    try:
        unit = Units(units)
    except ValueError:
        raise CompareError(f"unknown units {units!r}: expected points or sd") from None
    if non_regression is not None:
        if bounds is not None:
            raise CompareError("--non-regression sets the bounds: give it or --bounds, not both")
        return SprtSettings.non_regression(non_regression, unit, alpha=alpha, beta=beta,
                                           max_boards=max_boards, min_boards=min_boards)
    if bounds is None:
        if unit is Units.POINTS:
            raise CompareError("bounds in points depend on the bots: give --bounds H0,H1 "
                               "(e.g. 0,20) or use --units sd")
        low, high = DEFAULT_BOUNDS
    else:
        parts = bounds.split(",")
        try:
            low, high = (float(p) for p in parts)
        except ValueError:
            raise CompareError(f"bad --bounds {bounds!r}: expected two numbers H0,H1, e.g. "
                               f"0,20") from None
    return SprtSettings(low, high, unit, alpha, beta, max_boards, min_boards)


async def run_local(
    store: TournamentStore, tournament_id: str, bots: Mapping[str, Bot],
    on_status: StatusFn | None = None, *, auction_bot: Bot | None = None, lease: float = LEASE,
) -> Status:
    """Play a local compare in this process (bots by bot id), board after board as one worker
    plays them (:func:`tournaments.work.compares.play_here`), until the test decides.

    Imposed boards: ``auction_bot`` (a bot of its own, default the filler, else the baseline)
    bids each board's auction at a table of its copies, in memory; a board partly played keeps
    the auction its stored tables played."""
    from ..work.compares import play_here
    from .local_bots import SdkBots

    return await play_here(store, tournament_id, bots, SdkBots(), on_status,
                           auction_bot=auction_bot, lease=lease)


# ------------------------------------------------------------------------------ output
def describe(config: CompareConfig) -> str:
    s = config.sprt
    unit = "points" if s.units is Units.POINTS else "sd"
    return (f"H0 {s.low:+g} vs H1 {s.high:+g} {unit} per board, alpha {s.alpha:g}, beta "
            f"{s.beta:g}, at most {s.max_boards} boards"
            + (f", the other seats {config.filler}'s" if config.filler else "")
            + (", imposed boards" if config.imposed else ""))


def estimate(status: Status) -> str:
    half = f"± {status.half_width:.1f}" if math.isfinite(status.half_width) else "± ?"
    return f"{status.mean:+.1f} {half} points per board ({status.normalised:+.2f} sd)"


def status_line(status: Status, deals_per_board: int) -> str:
    return (f"board {status.boards:4d} ({status.boards * deals_per_board} deals)  LLR "
            f"{status.llr:+.2f} in [{status.lower:+.2f}, {status.upper:+.2f}]  "
            f"{estimate(status)}")


def verdict_text(status: Status, config: CompareConfig, nothing_scored: bool = False,
                 ended: Sequence[str] = ()) -> str:
    """The verdict in words; inconclusive, why (``nothing_scored``: every table of the boards
    counted scored 0; ``ended``: how their deals ended, in the game's words)."""
    s = config.sprt
    unit = "points" if s.units is Units.POINTS else "sd"
    if status.verdict is Verdict.ACCEPTED:
        what = ("not worse than the baseline" if s.high == 0 and s.low < 0 else
                f"better than the baseline (H1: {s.high:+g} {unit} per board)")
        return f"accepted: the candidate is {what}"
    if status.verdict is Verdict.REJECTED:
        what = (f"worse than the baseline by {-s.low:g} {unit} per board or more"
                if s.high == 0 and s.low < 0 else
                f"no better than the baseline (H0: {s.low:+g} {unit} per board)")
        return f"rejected: the candidate is {what}"
    if status.reason is Inconclusive.NO_DIFFERENCE:
        return f"inconclusive: nothing was compared: {_even(status, config, nothing_scored, ended)}"
    if status.reason is Inconclusive.FEW_DIFFERENCES:
        return (f"inconclusive: only {status.differing} of {status.boards} boards told the bots "
                f"apart (a verdict needs {s.min_boards}, --min-boards); the others came out "
                f"even{_hint(config)}")
    return (f"inconclusive: {s.max_boards} boards without a decision (the difference lies "
            f"between the bounds, or the cap is too low)")


def _even(status: Status, config: CompareConfig, nothing_scored: bool, ended: Sequence[str]
          ) -> str:
    """Why every board came out even, and what to do about it."""
    boards = f"the {status.boards} boards"
    if not nothing_scored:
        return (f"{boards} all came out even (the candidate scored what the baseline scored "
                f"in every seat: they played alike){_hint(config)}")
    how = f" ({', '.join(ended)})" if ended else ""
    if config.imposed:
        bidder = config.filler or "the baseline"
        return (f"every auction imposed on {boards} ({bidder}'s, bid at a table of its "
                f"copies) ended with no score{how}, so no card play was compared"
                + ("" if config.filler else f": impose a bidding bot's auctions with "
                                            f"--filler BOT ({FILLER_EXAMPLE}, say)"))
    return (f"every deal of {boards} scored nothing at every table{how}, at the candidate's "
            f"tables as at the baseline's{_hint(config)}")


FILLER_EXAMPLE = "heuristic"
"""A bundled bot that bids, named in the hint for a compare of bots that never do."""


def _hint(config: CompareConfig) -> str:
    if config.filler:
        return f" (among {config.filler} fillers)"
    return (f": compare them among other bots with --filler BOT ({FILLER_EXAMPLE}, say), so "
            f"that the deals are bid and played differently")


def result_json(
    status: Status, config: CompareConfig, settings: TournamentSettings, tournament_id: str,
    unplayed: int, nothing_scored: bool = False,
) -> dict[str, object]:
    assert status.verdict is not None
    return {
        "compare": tournament_id,
        "verdict": status.verdict.value,
        "exit_code": EXIT_CODES[status.verdict],
        "mode": "local" if config.local else "live",
        "candidate": config.candidate,
        "baseline": config.baseline,
        "filler": config.filler,
        "candidate_bot_id": settings.bots[0],
        "baseline_bot_id": settings.bots[1],
        "filler_bot_id": settings.bots[2] if len(settings.bots) > 2 else None,
        "aa": config.aa,
        "imposed": config.imposed,
        "test": config.sprt.to_json(),
        **status.to_json(),
        "nothing_scored": nothing_scored,
        "deals": status.boards * tables_per_board(settings),
        "game": settings.game,
        "game_settings": dict(settings.game_settings),
        "players": settings.players,
        "seed": str(settings.seed),
        "tables_unplayed": unplayed,
    }


class Reporter:
    """Progress on stderr: every board for the first ten, then at most one line a second."""

    def __init__(self, console: Console, deals_per_board: int, every: float = 1.0) -> None:
        self.console = console
        self.deals_per_board = deals_per_board
        self.every = every
        self._last = -math.inf
        self._pending: Status | None = None

    def __call__(self, status: Status) -> None:
        now = time.monotonic()
        if status.boards <= 10 or status.verdict is not None or now - self._last >= self.every:
            self.console.print(status_line(status, self.deals_per_board), highlight=False)
            self._last = now
            self._pending = None
        else:
            self._pending = status

    def flush(self) -> None:
        if self._pending is not None:
            self.console.print(status_line(self._pending, self.deals_per_board),
                               highlight=False)
            self._pending = None


# ------------------------------------------------------------------------- the command
def load_local_bot(spec: str) -> Bot:
    """The bot ``module:Class`` (or a bundled bot's name) names, or a one-line usage error
    saying why not (:func:`tournaments.cli.bots.load_bot_spec`, as for ``try``)."""
    return load_bot_spec(spec)


def _plays_the_game(spec: str, bot: Bot, game: str) -> None:
    """A bot that does not play the compare's game would never be seated (its tables waited
    for it for ever), so it is refused at once."""
    plays = tuple(getattr(bot, "games", (games.DEFAULT_GAME,)))
    if game not in plays:
        raise CompareError(f"{spec} does not play {game}, the game of this compare (it plays "
                           f"{', '.join(plays) or 'nothing'}; --game chooses the game)")


def _check_bots(candidate: str, baseline: str, filler: str | None, aa: bool) -> None:
    """The bots of a new compare, each mistake named."""
    if candidate == baseline and not aa:
        raise CompareError(f"the candidate and the baseline are the same bot ({candidate}): "
                           f"pass --aa for an A/A check")
    if filler is not None and filler == candidate:
        raise CompareError(f"the filler is the candidate ({candidate}): fill the other seats "
                           f"with another bot (or leave --filler out: the baseline fills them)")


def _resolve(
    store: TournamentStore, compare_id: str | None, candidate: str | None,
    baseline: str | None, filler: str | None, local: bool, aa: bool, imposed: bool,
    make_config: Callable[[], SprtSettings],
    players: int | None, seed: int | None, per_decision: float,
    game: str | None = None, game_settings: Mapping[str, object] | None = None,
) -> str:
    """The compare to run: the stored one (``--id`` of an existing compare, whose bots must
    match any given) or a new one."""
    if compare_id is not None:
        try:
            settings = store.settings(compare_id)
        except UnknownTournamentError:
            settings = None
        if settings is not None:
            if settings.compare is None:
                raise CompareError(f"{compare_id} is a tournament, not a compare")
            stored = CompareConfig.from_json(settings.compare)
            if stored.local != local:
                raise CompareError(f"{compare_id} is a {'local' if stored.local else 'live'} "
                                   f"compare: run it {'with' if stored.local else 'without'} "
                                   f"--local")
            given = (candidate, baseline)
            if given != (None, None) and given != (stored.candidate, stored.baseline):
                raise CompareError(f"{compare_id} compares {stored.candidate} with "
                                   f"{stored.baseline}, not {candidate} with {baseline}")
            if filler is not None and filler != stored.filler:
                among = f"among {stored.filler} fillers" if stored.filler else "without --filler"
                raise CompareError(f"{compare_id} is played {among}, not among {filler}")
            _same_game(compare_id, settings, game, players, game_settings)
            return compare_id
    if candidate is None or baseline is None:
        raise CompareError("give the CANDIDATE and the BASELINE (or --id of a stored compare)")
    _check_bots(candidate, baseline, filler, aa)
    config = CompareConfig(local, candidate, baseline, make_config(), aa, imposed, filler)
    named = (candidate, baseline, *([filler] if filler else []))
    rules = games.game(game or games.DEFAULT_GAME)
    bot_ids: tuple[str, ...]
    if local:
        for spec in named:
            _plays_the_game(spec, load_local_bot(spec), rules.name)
        bot_ids = local_bot_ids(store, candidate, baseline, filler)
    else:
        if candidate == baseline:
            raise CompareError("a live A/A check needs the same program registered twice: two "
                               "bot ids, one for each side")
        registry = BotRegistry(store.engine)
        for bot_id in named:
            try:
                registry.get(bot_id)
            except UnknownBotError as exc:
                raise CompareError(f"{exc} (live compares take registered bot ids; --local "
                                   f"takes module:Class bots)") from None
        bot_ids = named
    return create(store, config, bot_ids,
                  players=rules.declaration.usual_players if players is None else players,
                  seed=seed, per_decision=per_decision, tournament_id=compare_id,
                  game=rules.name, game_settings=game_settings)


def _same_game(compare_id: str, settings: TournamentSettings, game: str | None,
               players: int | None, game_settings: Mapping[str, object] | None) -> None:
    """A stored compare resumed with a game, a table size or settings of its own: they must be
    the stored ones (a compare cannot change game half-way)."""
    stored = game_form(settings.rules, settings.table_options)
    if game is not None and games.game(game).name != settings.game:
        raise CompareError(f"{compare_id} plays {stored}, not {games.game(game).title}")
    if players is not None and players != settings.players:
        raise CompareError(f"{compare_id} plays {stored}, not at {players} players")
    if game_settings and any(settings.game_settings.get(name) != value
                             for name, value in game_settings.items()):
        raise CompareError(f"{compare_id} plays {stored} with the settings "
                           f"{json.dumps(settings.game_settings, sort_keys=True)}, not "
                           f"{json.dumps(dict(game_settings), sort_keys=True)}")


def add_command(app: typer.Typer, store_factory: Callable[[], TournamentStore],
                console: Console, errors: Console) -> None:
    """Register ``compare`` on the CLI ``app``."""

    @app.command("compare", epilog=(
        "Exit status: 0 accepted, 3 rejected, 4 inconclusive (the cap was reached, or the "
        "boards came out even: nothing compared), 1 error, 2 bad command line or a bot that "
        "cannot be loaded."))
    def compare_cmd(
        candidate: Annotated[str | None, typer.Argument(
            help="The bot under test: module:Class with --local, else a registered bot id."
        )] = None,
        baseline: Annotated[str | None, typer.Argument(
            help="The bot it is compared with (same form).")] = None,
        filler: Annotated[str | None, typer.Option(
            help="The bot of the other seats, for the candidate and the baseline alike (same "
                 "form; default: the baseline). For bots that never bid: --filler heuristic. "
                 "With --imposed it bids the auctions.")] = None,
        local: Annotated[bool, typer.Option(
            "--local", help="Play both bots in this process, without a server (for CI).")
        ] = False,
        bounds: Annotated[str | None, typer.Option(
            help="H0,H1: the mean improvement per board under each hypothesis, in --units "
                 "(default 0,0.2 sd).")] = None,
        units: Annotated[str, typer.Option(
            help="sd: per-board standard deviations (scale-free, like fishtest's normalised "
                 "Elo); points: game points per board.")] = "sd",
        non_regression: Annotated[float | None, typer.Option(
            help="Accept if not worse by more than this (H0 -D, H1 0), in --units.")] = None,
        alpha: Annotated[float, typer.Option(help="False-positive rate, in (0, 0.5).")] = 0.05,
        beta: Annotated[float, typer.Option(help="False-negative rate, in (0, 0.5).")] = 0.05,
        max_boards: Annotated[int, typer.Option(
            help="Cap: inconclusive after this many boards.")] = 1000,
        min_boards: Annotated[int, typer.Option(
            help="No verdict before this many boards (a guard against a spread measured on "
                 "too few).")] = DEFAULT_MIN_BOARDS,
        aa: Annotated[bool, typer.Option(
            "--aa", help="Allow the same bot on both sides (an A/A check).")] = False,
        imposed: Annotated[bool, typer.Option(
            "--imposed", help="Imposed boards (--local): every table of a board plays the "
                              "auction the baseline bids, so only card play is compared.")
        ] = False,
        compare_id: Annotated[str | None, typer.Option(
            "--id", help="Resume this stored compare, or create it under this id.")] = None,
        game: game_options.GameOption = None,
        players: game_options.PlayersOption = None,
        variant: game_options.VariantOption = game_options.CLASSIC,
        direction: game_options.DirectionOption = game_options.COUNTER_CLOCKWISE,
        setting: game_options.SettingOption = None,
        seed: Annotated[str | None, typer.Option(
            help="Tournament seed (default: random, shown).")] = None,
        per_decision: Annotated[float | None, typer.Option(
            help="Seconds per decision (default 60 local, 1 live).")] = None,
        json_out: Annotated[bool, typer.Option(
            "--json", help="Print the verdict and its statistics as JSON on stdout.")] = False,
        out: Annotated[Path | None, typer.Option(
            help="Write the verdict and its statistics as JSON to this file.")] = None,
        host: Annotated[str, typer.Option(help="Live: address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Live: port (0: any free port).")] = 50051,
        concurrency: Annotated[int, typer.Option(help="Live: tables played at once.")] = 8,
        seat_timeout: Annotated[float, typer.Option(
            help="Live: give up after this many seconds with no bot to play.")] = 120.0,
        jobs: Annotated[int | None, typer.Option(
            help="Local: worker processes of this machine that play the boards (default: "
                 "every core).")] = None,
        workers_only: Annotated[bool, typer.Option(
            "--workers-only", help="Local, on PostgreSQL: only queue the boards for "
                                   "`tarot-arena worker` processes (on any machine) and "
                                   "follow the test as they play.")] = False,
    ) -> None:
        """Is CANDIDATE better than BASELINE? A sequential test on duplicate boards that stops
        as soon as the answer is known, with the error rates given."""
        if out is not None and not out.parent.is_dir():
            raise CompareError(f"cannot write {out}: no folder {out.parent}")
        parsed_seed = None
        if seed is not None:
            try:
                parsed_seed = int(seed, 0)
            except ValueError:
                raise CompareError(f"bad seed {seed!r}: an integer 0..2**64-1") from None
        if not 0 <= port <= 65535:
            raise CompareError(f"bad port {port}: expected 0..65535")
        rules = games.game(game or games.DEFAULT_GAME)
        asked_settings = game_options.table_settings(variant, direction, setting or [])
        if players is not None or asked_settings:  # the game checks them, in its own words
            rules.options(rules.declaration.usual_players if players is None else players,
                          asked_settings)
        if imposed:
            check_imposable(rules, "--imposed boards")

        def make_config() -> SprtSettings:
            try:
                return sprt_settings(bounds=bounds, units=units, non_regression=non_regression,
                                     alpha=alpha, beta=beta, max_boards=max_boards,
                                     min_boards=min_boards)
            except SprtError as exc:
                raise CompareError(str(exc)) from None

        # Mistakes in the command line are told before any database is opened or created.
        if imposed and not local:
            raise CompareError("--imposed boards are played in-process only: add --local")
        if (jobs is not None or workers_only) and not local:
            raise CompareError(f"{'--jobs' if jobs is not None else '--workers-only'} is for "
                               f"local compares (their bots run in worker processes): add "
                               f"--local")
        if jobs is not None and jobs < 1:
            raise CompareError(f"bad --jobs {jobs}: at least 1")
        if jobs is not None and workers_only:
            raise CompareError("--workers-only plays nothing here: give it or --jobs, not both")
        config_now = make_config()
        if filler == baseline:
            filler = None  # the baseline fills the other seats anyway, with a control table
        if candidate is not None and baseline is not None and compare_id is None:
            _check_bots(candidate, baseline, filler, aa)
            if local:
                for spec in (candidate, baseline, *([filler] if filler else [])):
                    _plays_the_game(spec, load_local_bot(spec), rules.name)
        store = store_factory()
        if workers_only and not store.postgres:
            raise CompareError("--workers-only needs a database that workers on other "
                               "machines reach: --db postgresql+psycopg://...")
        tid = _resolve(store, compare_id, candidate, baseline, filler, local, aa, imposed,
                       lambda: config_now, players, parsed_seed,
                       per_decision or (60.0 if local else 1.0), game, asked_settings)
        settings, config, stored = load(store, tid)
        if (stored.test.verdict is None
                and store.tournament(tid).status is TournamentStatus.CANCELLED):
            raise cancelled_error(tid, stored)
        errors.print(f"compare [bold]{tid}[/bold] (run again with --id {tid} to resume): "
                     f"{escape(_who(store, config.candidate, config.local))} vs "
                     f"{escape(_who(store, config.baseline, config.local))}, "
                     f"{escape(game_form(settings.rules, settings.table_options))}, "
                     f"{escape(describe(config))}, seed {settings.seed}", highlight=False)
        deals_per_board = tables_per_board(settings)
        reporter = Reporter(errors, deals_per_board)
        if config.local:
            specs = (config.candidate, config.baseline,
                     *([config.filler] if config.filler else []))
            bots = {bot_id: load_local_bot(spec)
                    for bot_id, spec in zip(settings.bots, specs, strict=True)}
            status = _run_local(store, tid, bots, reporter, errors,
                                jobs=jobs or default_jobs(), workers_only=workers_only,
                                auction_bot=(load_local_bot(specs[-1]) if config.imposed
                                             else None))
        else:
            status = _run_live(store, tid, host, port, concurrency, seat_timeout, reporter,
                               errors)
        reporter.flush()
        # Tables of the boards past the test's (played by workers meanwhile, or not): as
        # many whoever played, however many they were.
        unplayed = store.progress(tid).total - status.boards * deals_per_board
        assert status.verdict is not None
        nothing_scored = load(store, tid)[2].scored_nothing()
        ended = outcomes(store, tid, status.boards) if nothing_scored else []
        data = result_json(status, config, settings, tid, unplayed, nothing_scored)
        style = {Verdict.ACCEPTED: "green", Verdict.REJECTED: "red"}.get(status.verdict,
                                                                         "yellow")
        text = verdict_text(status, config, nothing_scored, ended)
        data["message"] = text
        after = (f"after {status.boards} boards ({data['deals']} deals): {estimate(status)}, "
                 f"LLR {status.llr:+.2f}")
        if status.reason in (Inconclusive.NO_DIFFERENCE, Inconclusive.FEW_DIFFERENCES):
            verdict, _, why = text.partition(": ")  # the reason is long: a line of its own
            errors.print(f"[{style}]{escape(verdict)}[/{style}] {escape(after)}",
                         highlight=False)
            errors.print(f"[{style}]{escape(why)}[/{style}]", highlight=False)
        else:
            errors.print(f"[{style}]{escape(text)}[/{style}] {escape(after)}", highlight=False)
        if unplayed:
            extra = max(store.progress(tid).done - status.boards * deals_per_board, 0)
            errors.print(f"{unplayed - extra} tables left unplayed (the test had "
                         f"{'decided' if status.reason is None else 'ended'})"
                         + (f"; {extra} played past it meanwhile (under way when it "
                            f"decided), not counted" if extra else ""), highlight=False)
        if out is not None:
            out.write_text(json.dumps(data, indent=2) + "\n")
        if json_out:
            sys.stdout.write(json.dumps(data) + "\n")
            sys.stdout.flush()
        raise typer.Exit(EXIT_CODES[status.verdict])


def _who(store: TournamentStore, bot: str, local: bool) -> str:
    """A live bot's name and id (a local bot's spec says it all)."""
    if local:
        return bot
    try:
        return f"{BotRegistry(store.engine).get(bot).name} ({bot})"
    except UnknownBotError:
        return bot


def _run_local(store: TournamentStore, tid: str, bots: Mapping[str, Bot],
               reporter: StatusFn, errors: Console, *, jobs: int, workers_only: bool,
               auction_bot: Bot | None) -> Status:
    """A local compare, queued for workers (its bots pinned), played in this process, on
    ``jobs`` processes of this machine, or (``workers_only``) by workers anywhere."""
    from ..work.compares import pin_compare, play_on_processes, watch
    from .local_bots import SdkBots

    pin_compare(store, tid, bots, SdkBots())
    url = store.engine.url.render_as_string(hide_password=False)
    if workers_only:
        errors.print(f"queued for workers: start `tarot-arena worker --db "
                     f"{escape(store.engine.url.render_as_string(hide_password=True))}` on "
                     f"any machine that reaches the database (with the bots' code); "
                     f"following the test", highlight=False)
        return watch(store, tid, reporter)
    if jobs == 1 or store.engine.url.database in (None, "", ":memory:"):
        return trio.run(until_told_to_stop, functools.partial(
            run_local, store, tid, bots, reporter, auction_bot=auction_bot))
    return play_on_processes(store, url, tid, jobs, SdkBots(), reporter)


def _run_live(store: TournamentStore, tid: str, host: str, port: int, concurrency: int,
              seat_timeout: float, reporter: StatusFn, errors: Console) -> Status:
    from arena.transport.server import ArenaServer

    from ..play.remote import RemoteArena

    async def main() -> Status:
        server = ArenaServer(BotRegistry(store.engine), host=host, port=port)
        async with trio.open_nursery() as nursery:
            bound = await nursery.start(server.serve)
            errors.print(f"arena listening on {host}:{bound}; waiting for the bots",
                         highlight=False)
            status = await run_compare(store, RemoteArena(server), tid, concurrency=concurrency,
                                       seat_timeout=seat_timeout, on_status=reporter)
            nursery.cancel_scope.cancel()
        return status

    return trio.run(until_told_to_stop, main)

