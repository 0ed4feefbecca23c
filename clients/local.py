"""The in-process arena: SDK bots of this process play, the table runner talks to them directly,
without gRPC. It depends on the bot SDK, so it lives here, on the clients side: of
``tournaments``, only the command line (``try``, ``compare --local``) imports it, lazily.

:class:`LocalSeat` is a :class:`~arena.table.SeatChannel` holding one seat for one
:class:`~clients.sdk.Bot`. It keeps the seat's :class:`~clients.sdk.TableView` up to date from the
runner's messages exactly as the network client does (``TableView.from_start``, ``.apply`` for
each event, ``.with_request`` for each decision) and calls the bot's method for the request, so a
bot that plays here plays the same on the arena. Plain decision methods run directly (no worker
thread: nothing else runs alongside), coroutine methods are awaited.

On top of it:

- :class:`LocalArena` is the arena a stored tournament is played on by the one tournament
  runner (:class:`tournaments.play.runner.TournamentRunner`), as on the gRPC arena:
  ``compare --local``;
- :func:`play_local` plays one deal with one bot per seat and returns the runner's
  :class:`~arena.table.TableOutcome` (scores, record, infractions);
- :func:`play_match` plays boards in rotation (each bot in each seat of every board, as
  :func:`tournaments.duplicate.seatings.rotation` seats them) and returns the
  :class:`tournaments.duplicate.scoring.Entry` values that
  :func:`tournaments.duplicate.scoring.compute_standings` scores; :func:`play_plans` does the same
  for any list of table plans (a gauntlet, say). Nothing is stored: they are for simulations
  (tests, benchmarks, ``tarot-arena try``), where storing each deal would cost more than
  playing it.

Boards are dealt as the tournament store deals them: board ``k`` of seed ``s`` is
``game.new_deal(board_seed(s, k), options, game.dealer_of(options, k))`` (French Tarot: every
seat deals in turn; with the dummy, seat 1 deals). The game is the one named (``game=``), else
the first game of the first bot's ``Bot.games`` that every bot plays: bots that never name a
game play French Tarot, as they always did, and Tre e Venticinque bots play Tre.

::

    from clients.local import play_match
    from clients.random_bot import RandomBot
    from tournaments.duplicate.scoring import compute_standings

    entries = play_match([MyBot(), RandomBot(1), MyBot(), RandomBot(2)], boards=24, seed=7)
    for row in compute_standings(entries).rows:
        print(row.bot_id, row.per_board)
"""

from __future__ import annotations

import inspect
import logging
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any

import trio

from arena import games
from arena.games import AnyGame, State
from arena.games.french_tarot import Deal, GameState, TableOptions, seeded_deal
from arena.table import (
    Answer,
    DecisionRequest,
    Malformed,
    Notice,
    PlayerInfo,
    SeatChannel,
    TableEnd,
    TableEvent,
    TableOutcome,
    TableRunner,
    TableStart,
    TimeControl,
)
from arena.table.messages import ViewFn
from clients.sdk import Bot, TableView, as_action
from tournaments.duplicate.scoring import Entry
from tournaments.duplicate.seatings import TablePlan, board_seed, rotation
from tournaments.play.arena import BotAwayError, TableToPlay
from tournaments.play.imposed import Auction, ImposedAuctions, SeatFactory, impose

log = logging.getLogger(__name__)

LOCAL_TIME_CONTROL = TimeControl(per_decision=60.0)
"""In-process default: generous, so that results never depend on the machine's speed."""


class LocalSeat:
    """A :class:`~arena.table.SeatChannel` that plays ``bot`` in this process.

    ``strict`` (the default) lets an exception raised by the bot propagate, which stops the deal:
    what tests want. With ``strict=False`` the failure is logged and answered as a malformed
    action, so the runner records an infraction and plays its fallback, as the arena would (the
    network client leaves the request unanswered, which costs a timeout instead).

    The hooks (``on_table_start``, ``on_event``, ``on_notice``, ``on_table_end``) are called as
    the network client calls them. ``view`` is the seat's current view (None before the start).
    Each request's view has its deadline (:attr:`~clients.sdk.TableView.deadline`), as over the
    network: ``clock()`` when the runner asks, plus the time limit.
    """

    clock: Callable[[], float] = time.perf_counter
    """The bot's clock, which stamps each request (tests give a fake one)."""

    def __init__(self, bot: Bot, *, strict: bool = True) -> None:
        self.bot = bot
        self.strict = strict
        self.view: TableView | None = None
        self.end_message: TableEnd | None = None
        self._on_event = type(bot).on_event is not Bot.on_event

    @property
    def connected(self) -> bool:
        return True

    async def start(self, start: TableStart, view: ViewFn) -> None:
        self.view = TableView.from_start(start)
        await self._hook(self.bot.on_table_start, self.view)

    async def send(self, event: TableEvent) -> None:
        view = self.view = self._current().apply(event.event, event.sequence)
        if self._on_event:
            await self._hook(self.bot.on_event, view, event.event)

    async def ask(self, request: DecisionRequest) -> Answer:
        view = self.view = self._current().with_request(request, self.clock())
        method = self.bot.method_for(request)
        try:
            result = method(view, request)
            if inspect.isawaitable(result):
                result = await result
            answer = as_action(result, view.game)
        except Exception as exc:
            if self.strict:
                raise
            log.exception("%s failed to decide request %d of table %r seat %d",
                          self.bot.display_name, request.request_id, request.table_id,
                          request.seat)
            return Malformed(f"the bot raised {type(exc).__name__}: {exc}")
        # A checkpoint, so that the runner's time limit applies to a slow plain method too: its
        # answer then arrives after the deadline and is refused as a timeout, as on the arena.
        await trio.lowlevel.checkpoint()
        return answer

    async def notice(self, notice: Notice) -> None:
        await self._hook(self.bot.on_notice, self.view, notice)

    async def end(self, end: TableEnd) -> None:
        self.end_message = end
        if self.view is not None:
            await self._hook(self.bot.on_table_end, self.view, end)

    def _current(self) -> TableView:
        if self.view is None:
            raise RuntimeError("the runner sent a message before the table start")
        return self.view

    async def _hook(self, fn: Callable[..., Any], *args: Any) -> None:
        try:
            result = fn(*args)
            if inspect.isawaitable(result):
                await result
        except Exception:
            if self.strict:
                raise
            log.exception("error in %s.%s", type(self.bot).__name__, fn.__name__)



class LocalArena:
    """The in-process arena: SDK bot objects of this process, by bot id, play the tables that
    :class:`tournaments.play.runner.TournamentRunner` hands it (an
    :class:`~tournaments.play.arena.Arena`). Every bot of ``bots`` is always there and may sit
    at any number of tables; a bot id it does not hold is never seated (the runner waits for it,
    as for a bot not connected), nor at a table of a game it does not play (``Bot.games``).

    ``strict``: as for :class:`LocalSeat`. ``imposed``: every table of a board plays the
    auction these give it (:mod:`tournaments.play.imposed`).
    """

    def __init__(self, bots: Mapping[str, Bot], *, strict: bool = True,
                 imposed: ImposedAuctions | None = None) -> None:
        self.bots = dict(bots)
        self.strict = strict
        self.imposed = imposed

    def connected_bots(self) -> Collection[str]:
        return self.bots.keys()

    def awaiting(self, bot_ids: Sequence[str], game: str) -> list[str]:
        return [b for b in dict.fromkeys(bot_ids)
                if b not in self.bots or game not in self.bots[b].games]

    async def wait_change(self) -> None:
        await trio.sleep_forever()  # its bots never come or go

    async def play(self, table: TableToPlay) -> TableOutcome:
        missing = self.awaiting(table.bots, table.state.game.name)
        if missing:
            raise BotAwayError(f"no bot {', '.join(missing)} playing {table.state.game.name} in "
                               f"this process")
        auction = await self.imposed.of(table) if self.imposed is not None else None
        return await _play(table, [self.bots[b] for b in table.bots], self.strict, auction)


async def _play(table: TableToPlay, bots: Sequence[Bot], strict: bool,
                auction: Auction | None = None) -> TableOutcome:
    """The table with ``bots[seat]`` in each seat, each behind a :class:`LocalSeat`."""
    players = [PlayerInfo(seat, table.bots[seat], bot.display_name)
               for seat, bot in enumerate(bots)]
    seats: list[SeatChannel] = [LocalSeat(bot, strict=strict) for bot in bots]
    if auction is not None:
        seats = list(impose(seats, auction))
    runner = TableRunner(table.table_id, table.state, seats, players, table.time_control,
                         table.reveal)
    return await runner.run()


async def play_local(
    deal: Deal,
    options: TableOptions,
    bots: Sequence[Bot],
    table_id: str = "local",
    *,
    bot_ids: Sequence[str] | None = None,
    time_control: TimeControl | None = None,
    strict: bool = True,
    auction: Auction | None = None,
) -> TableOutcome:
    """Play ``deal`` with ``bots[seat]`` in each seat (a bot may hold several seats); nothing
    is stored.

    ``bot_ids`` name the seats in the :class:`~arena.table.PlayerInfo` the bots see (default: each
    bot's display name). ``auction``: imposed on the table (:mod:`tournaments.play.imposed`).
    Runs under trio; see :func:`play_match` for a plain function.
    """
    if len(bots) != options.players:
        raise ValueError(f"a {options.players}-player table needs {options.players} bots, "
                         f"got {len(bots)}")
    ids = tuple(bot_ids) if bot_ids is not None else tuple(b.display_name for b in bots)
    if len(ids) != len(bots):
        raise ValueError("one bot id per seat")
    table = TableToPlay(table_id, 0, GameState(deal, options), ids,
                        time_control or LOCAL_TIME_CONTROL)
    return await _play(table, bots, strict, auction)


def auction_seat(bot: Bot) -> SeatFactory:
    """Seats for :func:`tournaments.play.imposed.free_auction`: ``bot`` in this process, its
    failures answered with the arena's fallbacks."""
    return lambda: LocalSeat(bot, strict=False)


def board_deal(seed: int, board: int, options: TableOptions) -> Deal:
    """Board ``board`` of a French Tarot match seeded ``seed``: the deal the tournament store
    would make (:func:`board_state` for any game)."""
    dealers = options.dealer_seats  # with the dummy, seat 1 deals every board
    return seeded_deal(board_seed(seed, board), options.players, dealers[board % len(dealers)])


def board_state(game: AnyGame, seed: int, board: int, options: Any) -> State:
    """Board ``board`` of a match of ``game`` seeded ``seed``, at tables of ``options``: the
    deal the tournament store would make, ready to play."""
    state: State = game.new_deal(board_seed(seed, board), options,
                                 game.dealer_of(options, board))
    return state


def game_of_bots(bots: Iterable[Bot]) -> AnyGame:
    """The game a match of ``bots`` plays when nobody names one: the first of the first bot's
    ``Bot.games`` that every bot plays (a bot that names none plays French Tarot, the game of
    protocol version 1). ValueError when they have no game in common, or one is unknown."""
    listed = [type(bot).games for bot in bots]
    if not listed:
        raise ValueError("no bots: name the game")
    common = [name for name in listed[0] if all(name in other for other in listed[1:])]
    if not common:
        raise ValueError("these bots have no game in common: "
                         + "; ".join(f"{bot.display_name} plays {', '.join(type(bot).games)}"
                                     for bot in bots))
    return games.game(common[0])


TableDoneFn = Callable[[TablePlan, TableOutcome], None]


async def play_plans_async(
    plans: Iterable[TablePlan],
    bots: Mapping[str, Bot],
    *,
    seed: int = 0,
    options: Any = None,
    entry_ids: Mapping[str, str] | None = None,
    match_id: str = "local",
    time_control: TimeControl | None = None,
    strict: bool = True,
    on_table: TableDoneFn | None = None,
    game: AnyGame | None = None,
) -> list[Entry]:
    """Play each table plan one after the other; the scored seats as entries.

    ``plan.bots`` name the bots by key in ``bots``; ``entry_ids`` maps a key to the bot id of its
    entries (default: the key itself), so that several keys may score as one bot. ``game``
    (default: :func:`game_of_bots`) at tables of ``options`` (default: the game's, for as many
    players as the first plan seats).
    """
    plans = list(plans)
    game = game or game_of_bots(bots.values())
    if options is None:
        options = game.options(len(plans[0].bots) if plans else game.seat_counts()[0])
    names = entry_ids or {}
    entries: list[Entry] = []
    for plan in plans:
        state = board_state(game, seed, plan.board, options)  # a state is played in place
        ids = [names.get(key, key) for key in plan.bots]
        table_id = f"{match_id}/b{plan.board}/t{plan.number}"
        seated = [bots[key] for key in plan.bots]
        if len(seated) != state.players:
            raise ValueError(f"a {state.players}-player table needs {state.players} bots, "
                             f"got {len(seated)}")
        table = TableToPlay(table_id, plan.board, state, tuple(ids),
                            time_control or LOCAL_TIME_CONTROL)
        outcome = await _play(table, seated, strict)
        scores = outcome.result.scores
        for seat, bot_id in enumerate(ids):
            if not plan.scored[seat]:
                continue
            kinds = tuple(i.kind.value for i in outcome.infractions if i.seat == seat)
            entries.append(Entry(plan.board, seat, table_id, bot_id, scores[seat], len(kinds),
                                 kinds))
        if on_table is not None:
            on_table(plan, outcome)
    return entries


def play_plans(
    plans: Iterable[TablePlan],
    bots: Mapping[str, Bot],
    *,
    seed: int = 0,
    options: Any = None,
    entry_ids: Mapping[str, str] | None = None,
    match_id: str = "local",
    time_control: TimeControl | None = None,
    strict: bool = True,
    on_table: TableDoneFn | None = None,
    game: AnyGame | None = None,
) -> list[Entry]:
    """:func:`play_plans_async` as a plain function (it runs its own trio loop)."""
    return trio.run(lambda: play_plans_async(
        plans, bots, seed=seed, options=options, entry_ids=entry_ids, match_id=match_id,
        time_control=time_control, strict=strict, on_table=on_table, game=game,
    ))


def play_match(
    bots: Sequence[Bot],
    boards: int,
    *,
    seed: int = 0,
    options: Any = None,
    bot_ids: Sequence[str] | None = None,
    first_board: int = 0,
    match_id: str = "local",
    time_control: TimeControl | None = None,
    strict: bool = True,
    on_table: TableDoneFn | None = None,
    game: AnyGame | None = None,
) -> list[Entry]:
    """Play boards ``first_board .. first_board + boards - 1`` in rotation: one table per seat
    shift, so each bot holds every hand of every board once. One bot per seat (default options:
    ``game``'s for as many players as bots; ``game`` defaults to :func:`game_of_bots`).

    Entries are grouped by ``bot_ids`` (default: each bot's display name), so two copies of one
    bot class score as one bot: ``[Heuristic(), Random(1), Heuristic(), Random(2)]`` compares the
    two classes, each holding half of every comparison group.
    """
    game = game or game_of_bots(bots)
    if options is None:
        options = game.options(len(bots))
    players = game.players_of(options)
    if len(bots) != players:
        raise ValueError(f"rotation needs one bot per seat ({players}), got {len(bots)}")
    ids = list(bot_ids) if bot_ids is not None else [b.display_name for b in bots]
    if len(ids) != len(bots):
        raise ValueError("one bot id per bot")
    keys = [f"#{i}" for i in range(len(bots))]  # rotation seats positions; ids may repeat
    plans = [
        TablePlan(p.board + first_board, p.number, p.bots, p.scored)
        for p in rotation(keys, boards)
    ]
    return play_plans(
        plans, dict(zip(keys, bots, strict=True)), seed=seed, options=options,
        entry_ids=dict(zip(keys, ids, strict=True)), match_id=match_id,
        time_control=time_control, strict=strict, on_table=on_table, game=game,
    )
