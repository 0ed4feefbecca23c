"""Imposed boards ("donnes imposées"): every table of a board plays the same auction.

As in FFT duplicate or Bridge Base's "Just Declare", each board's taker, contract (and, at five,
called king) are fixed, so that the tables differ in card play only. The auction of a board is
the one the baseline bids at a table of baselines only (played up to its end in memory, never
stored); at every table of the board, the control table included, each bidding or calling
decision is answered with that auction's action for the seat, and the bot is not asked: it is
told the auction by the usual bid and call events, as if it had bid so. The discard, the chelem
announcement, poignées and card play are the bots' own. (A bot is asked fewer decisions than
at a free table: one whose choices depend on that count, as ``TableView.decisions``, may play
its cards differently for it.)

A stored table's record holds the auction it played, so a compare resumed after a crash takes a
board's auction from one of its finished tables, and every table of the board plays the same
one even when the baseline bids differently from one run to the next.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping, Sequence

import trio

from arena.games.french_tarot import Action, Deal, DealRecord, GameState, Phase, TableOptions, apply
from arena.games.french_tarot.definition import DECLARATION
from arena.storage.models import TableStatus
from arena.table import (
    Answer,
    DecisionRequest,
    Notice,
    PlayerInfo,
    SeatChannel,
    TableEnd,
    TableEvent,
    TableRunner,
    TableStart,
    TimeControl,
)
from arena.table.messages import ViewFn

from ..store import TournamentStore
from .arena import TableToPlay

AUCTION_PHASES = frozenset(Phase(phase) for phase in DECLARATION.auction_phases)

Auction = tuple[tuple[int, Action], ...]
"""(seat, action) in the order played."""


class ImposedAuctionError(RuntimeError):
    """A table asked for an auction decision the imposed auction does not hold."""


def auction_of(options: TableOptions, deal: Deal, actions: Sequence[tuple[int, Action]]
               ) -> Auction:
    """The bidding and calling actions at the start of ``actions`` (a played deal's history)."""
    state = GameState(deal, options)
    auction = []
    for seat, action in actions:
        if state.phase not in AUCTION_PHASES:
            break
        auction.append((seat, action))
        apply(state, action, seat)
    return tuple(auction)


def auction_of_record(record: DealRecord) -> Auction:
    return auction_of(record.options, record.deal, record.actions)


class _AuctionOver(Exception):
    pass


class _AuctionOnly:
    """A seat that stops the table at its first decision past the auction."""

    def __init__(self, inner: SeatChannel) -> None:
        self.inner = inner

    @property
    def connected(self) -> bool:
        return True

    async def start(self, start: TableStart, view: ViewFn) -> None:
        await self.inner.start(start, view)

    async def send(self, event: TableEvent) -> None:
        await self.inner.send(event)

    async def ask(self, request: DecisionRequest) -> Answer:
        if request.phase not in AUCTION_PHASES:
            raise _AuctionOver
        return await self.inner.ask(request)

    async def notice(self, notice: Notice) -> None:
        await self.inner.notice(notice)

    async def end(self, end: TableEnd) -> None:
        await self.inner.end(end)


SeatFactory = Callable[[], SeatChannel]
"""A new seat for one bot, at each call (one per seat of a table of its copies)."""


async def free_auction(deal: Deal, options: TableOptions, seat: SeatFactory,
                       name: str = "baseline", time_control: TimeControl | None = None
                       ) -> Auction:
    """The auction a bot bids at a table of its own copies, each seat from ``seat()`` (in
    memory: nothing is stored). Its failures get the arena's fallbacks, as at any table."""
    seats = [_AuctionOnly(seat()) for _ in range(options.players)]
    players = [PlayerInfo(number, "baseline", name) for number in range(options.players)]
    runner = TableRunner("auction", GameState(deal, options), seats, players, time_control)
    with contextlib.suppress(_AuctionOver):  # the auction is over: enough
        await runner.run()
    return auction_of(options, deal, runner.state.history)


class ImposedSeat:
    """A seat whose auction decisions are answered from ``auction`` (shared by the table's
    seats, consumed in order); every other decision goes to ``inner``."""

    def __init__(self, inner: SeatChannel, auction: list[tuple[int, Action]]) -> None:
        self.inner = inner
        self.auction = auction

    @property
    def connected(self) -> bool:
        return self.inner.connected

    async def start(self, start: TableStart, view: ViewFn) -> None:
        await self.inner.start(start, view)

    async def send(self, event: TableEvent) -> None:
        await self.inner.send(event)

    async def ask(self, request: DecisionRequest) -> Answer:
        if request.phase not in AUCTION_PHASES:
            return await self.inner.ask(request)
        if not self.auction:
            raise ImposedAuctionError(f"table {request.table_id}: seat {request.seat} is asked "
                                      f"to bid after the imposed auction's end")
        seat, action = self.auction.pop(0)
        if seat != request.seat or action not in request.legal_actions:
            raise ImposedAuctionError(f"table {request.table_id}: the imposed auction has seat "
                                      f"{seat} play {action}, but seat {request.seat} is asked")
        return action

    async def notice(self, notice: Notice) -> None:
        await self.inner.notice(notice)

    async def end(self, end: TableEnd) -> None:
        await self.inner.end(end)


def impose(seats: Sequence[SeatChannel], auction: Auction) -> list[ImposedSeat]:
    """A table's seats with ``auction`` imposed (one script, shared by the seats)."""
    script = list(auction)
    return [ImposedSeat(seat, script) for seat in seats]


class ImposedAuctions:
    """The auction imposed on each board: the one a stored table of the board played
    (``known``: a resumed compare), else the one ``baseline`` bids at a table of its copies,
    bid once and kept for the board's other tables."""

    def __init__(self, baseline: SeatFactory, name: str = "baseline",
                 known: Mapping[int, Auction] | None = None) -> None:
        self.baseline = baseline
        self.name = name
        self.known = dict(known or {})
        self._lock = trio.Lock()  # two tables of one board: one auction

    async def of(self, table: TableToPlay) -> Auction:
        state = table.state
        if not isinstance(state, GameState):
            raise ValueError(f"table {table.table_id}: imposed boards are French Tarot's, not "
                             f"{state.game.name}'s")
        async with self._lock:
            auction = self.known.get(table.board)
            if auction is None:
                auction = self.known[table.board] = await free_auction(
                    state.deal, state.options, self.baseline, self.name, table.time_control)
        return auction


def stored_auctions(store: TournamentStore, tournament_id: str) -> dict[int, Auction]:
    """The auction of each board that is partly played (from one of its finished tables)."""
    tables = store.tables(tournament_id)
    unfinished = {t.board_number for t, _ in tables if t.status is not TableStatus.DONE}
    auctions: dict[int, Auction] = {}
    for table, _ in tables:
        board = table.board_number
        if table.status is TableStatus.DONE and board in unfinished and board not in auctions:
            auctions[board] = auction_of_record(store.record(table.id))
    return auctions
