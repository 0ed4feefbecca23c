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
from collections.abc import Sequence

from arena.games.french_tarot import Action, Deal, DealRecord, GameState, Phase, TableOptions, apply
from arena.table import (
    Answer,
    DecisionRequest,
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
from clients.local import LocalSeat
from clients.sdk import Bot

AUCTION_PHASES = frozenset({Phase.BIDDING, Phase.CALLING})

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


async def free_auction(deal: Deal, options: TableOptions, bot: Bot,
                       time_control: TimeControl | None = None) -> Auction:
    """The auction ``bot`` bids at a table of its own copies (in memory: nothing is stored).
    Its failures get the arena's fallbacks, as at any table."""
    seats = [_AuctionOnly(LocalSeat(bot, strict=False)) for _ in range(options.players)]
    players = [PlayerInfo(seat, "baseline", bot.display_name) for seat in range(options.players)]
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


async def play_imposed(
    deal: Deal, options: TableOptions, bots: Sequence[Bot], auction: Auction, table_id: str,
    *, bot_ids: Sequence[str], time_control: TimeControl | None = None,
) -> TableOutcome:
    """Play ``deal`` with ``bots[seat]`` in each seat and ``auction`` imposed."""
    script = list(auction)
    seats = [ImposedSeat(LocalSeat(bot, strict=False), script) for bot in bots]
    players = [PlayerInfo(seat, bot_ids[seat], bot.display_name) for seat, bot in enumerate(bots)]
    runner = TableRunner(table_id, GameState(deal, options), seats, players, time_control)
    return await runner.run()
