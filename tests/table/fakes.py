"""Scripted seats for the table runner tests: a :class:`FakeSeat` is a
:class:`~arena.table.SeatChannel` that records everything it receives and answers each
:class:`~arena.table.DecisionRequest` with a *policy* (an async function of the request).

Policies sleep on trio's clock, so with ``autojump_clock`` a ten-second timeout costs nothing.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import trio

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    Contract,
    Deal,
    GameState,
    Phase,
    Play,
    TableOptions,
    seeded_deal,
)
from arena.table import (
    Answer,
    DecisionRequest,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableRunner,
    TableStart,
    TimeControl,
)
from arena.table.messages import ViewFn

Policy = Callable[[DecisionRequest], Awaitable[Answer]]
M = TypeVar("M")
TABLE_ID = "table-1"


def choose(request: DecisionRequest, bids: Mapping[int, Contract] | None = None) -> Action:
    """A simple, deterministic player: bids ``bids[seat]`` when it may (else passes), plays its
    lowest legal card, never shows a poignée, and otherwise takes the first legal action."""
    legal = request.legal_actions
    if request.phase is Phase.BIDDING:
        contract = (bids or {}).get(request.seat)
        wanted = Bid(contract) if contract is not None else PASS
        return wanted if wanted in legal else PASS
    for action in legal:
        if isinstance(action, Play):
            return action
    return legal[0]


def player(bids: Mapping[int, Contract] | None = None, delay: float = 0.0) -> Policy:
    """:func:`choose` after ``delay`` seconds."""

    async def policy(request: DecisionRequest) -> Answer:
        if delay:
            await trio.sleep(delay)
        return choose(request, bids)

    return policy


def random_player(rng: random.Random, pass_rate: float = 0.6) -> Policy:
    """Any legal action at random; passes with ``pass_rate`` when bidding, so that every
    contract, the Garde Sans and Garde Contre included, comes up."""

    async def policy(request: DecisionRequest) -> Answer:
        legal = request.legal_actions
        if request.phase is Phase.BIDDING and rng.random() < pass_rate:
            return PASS
        return rng.choice(legal)

    return policy


async def never(request: DecisionRequest) -> Answer:
    await trio.sleep_forever()
    raise AssertionError("unreachable")


class FakeSeat:
    """A seat channel that records every message, in order, and answers with ``policy``."""

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy or player()
        self.connected = True
        self.received: list[Any] = []
        self.view: ViewFn | None = None

    async def start(self, start: TableStart, view: ViewFn) -> None:
        self.received.append(start)
        self.view = view

    async def send(self, event: TableEvent) -> None:
        self.received.append(event)

    async def ask(self, request: DecisionRequest) -> Answer:
        self.received.append(request)
        return await self.policy(request)

    async def notice(self, notice: Notice) -> None:
        self.received.append(notice)

    async def end(self, end: TableEnd) -> None:
        self.received.append(end)

    def of(self, kind: type[M]) -> list[M]:
        return [m for m in self.received if isinstance(m, kind)]

    @property
    def events(self) -> list[Any]:
        """The payloads of the table events received, in order."""
        return [m.event for m in self.of(TableEvent)]


def players_of(n: int) -> list[PlayerInfo]:
    return [PlayerInfo(seat, f"bot_{seat}", f"Bot {seat}") for seat in range(n)]


def make_runner(
    seats: Sequence[FakeSeat],
    *,
    seed: int = 1,
    dealer: int = 0,
    deal: Deal | None = None,
    beginner: bool = False,
    time_control: TimeControl | None = None,
    reveal: bool = True,
) -> TableRunner:
    n = len(seats)
    deal = deal or seeded_deal(seed, n, dealer)
    return TableRunner(
        TABLE_ID, GameState(deal, TableOptions(n, beginner)), seats, players_of(n), time_control,
        reveal,
    )


def requests_in_order(seats: Sequence[FakeSeat]) -> list[DecisionRequest]:
    """Every request of the table, in decision order (request ids only grow)."""
    requests = [r for seat in seats for r in seat.of(DecisionRequest)]
    return sorted(requests, key=lambda r: r.request_id)
