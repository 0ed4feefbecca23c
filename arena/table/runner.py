"""Plays one deal with a seat channel per seat: time control, checks, fallbacks, infractions.

The runner knows nothing of gRPC: a seat is anything with the :class:`SeatChannel` methods, so
timeouts, illegal answers and disconnections are tested with scripted fake seats and trio's fake
clock. Whatever a seat does, the deal completes: a missing, late, illegal or malformed answer is
recorded as an infraction with its reason and replaced by the deterministic
:func:`fallback_action`; what that costs the bot is the tournament's decision.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trio

from arena.games import Game, State, game_of
from arena.games.base import CARD_KINDS, Record

from .messages import (
    Answer,
    DecisionRequest,
    Infraction,
    InfractionKind,
    Malformed,
    Notice,
    PlayerInfo,
    TableEnd,
    TableEvent,
    TableStart,
    TimeControl,
    ViewFn,
)


class BotGone(Exception):
    """The seat's bot is gone and will not answer (the transport says so)."""


class SeatChannel(Protocol):
    """How the runner talks to the bot holding one seat.

    ``start``, ``send``, ``notice`` and ``end`` must not block for long (queue and return);
    ``ask`` waits for the answer to ``request`` and may raise :class:`BotGone`. The runner
    bounds ``ask`` with a cancel scope, so ``ask`` needs no timeout of its own.
    """

    @property
    def connected(self) -> bool: ...

    async def start(self, start: TableStart, view: ViewFn) -> None: ...

    async def send(self, event: TableEvent) -> None: ...

    async def ask(self, request: DecisionRequest) -> Answer: ...

    async def notice(self, notice: Notice) -> None: ...

    async def end(self, end: TableEnd) -> None: ...


def fallback_action(state: State) -> object:
    """What the arena plays for a seat that did not answer properly: the game's documented,
    deterministic choice (French Tarot: the lowest legal card, else its first legal action)."""
    return game_of(state).fallback_action(state)


def _refusal(state: State, answer: object) -> tuple[InfractionKind, str]:
    """Why an answer that is not in the legal list is refused.

    A seat may return anything, even a card that does not exist, which the rules cannot explain:
    that is malformed, not illegal, and must not stop the deal.
    """
    game = game_of(state)
    try:
        wire = game.action_to_wire(answer)
    except (AttributeError, KeyError, TypeError, ValueError):
        return (InfractionKind.MALFORMED_ACTION, f"{answer!r} is not an action")
    if wire.kind in CARD_KINDS and not 0 <= wire.argument < game.deck_size:
        return (InfractionKind.MALFORMED_ACTION,
                f"card {wire.argument!r} does not exist: cards are numbered "
                f"0..{game.deck_size - 1}")
    try:
        return (InfractionKind.ILLEGAL_ACTION, game.explain_illegal(state, answer))
    except (AttributeError, KeyError, TypeError, ValueError):  # e.g. Bid(7): no such contract
        return (InfractionKind.MALFORMED_ACTION, f"{answer!r} is not a valid action")


@dataclass(frozen=True, slots=True)
class DecisionLog:
    index: int
    seat: int
    action: Any
    """The game's action that was applied (the seat's answer, or the fallback)."""
    seconds: float
    """Time the seat took, measured on the server."""
    infraction: Infraction | None = None

    @property
    def fallback(self) -> bool:
        return self.infraction is not None


@dataclass(slots=True)
class TableOutcome:
    table_id: str
    state: Any
    """The game's final state (a :class:`arena.games.State`)."""
    decisions: list[DecisionLog] = field(default_factory=list)
    infractions: list[Infraction] = field(default_factory=list)

    @property
    def game(self) -> Game:
        return game_of(self.state)

    @property
    def result(self) -> Any:
        result = self.game.result(self.state)
        assert result is not None
        return result

    @property
    def record(self) -> Record:
        """The deal as the game's deal record."""
        return self.game.record(self.state)


_last_request_id = 0


def next_request_id() -> int:
    """A request id never given before, by this process or any earlier one on this clock.

    A table replayed after a crash keeps its table id, so ids that restart at 1 in every
    process would let a bot answer a request of the earlier attempt with an answer it kept
    (a false ILLEGAL_ACTION). Ids are the wall clock in microseconds, or one more than the last
    when the clock has not moved on: a process asks far fewer than a million a second, so a
    later process starts above every id of an earlier one. They stay below 2**53 (exact as a
    JavaScript number) until the year 2255.
    """
    global _last_request_id
    _last_request_id = max(_last_request_id + 1, time.time_ns() // 1000)
    return _last_request_id


class TableRunner:
    """One deal at one table. ``await run()`` plays it to the end and returns the outcome."""

    def __init__(
        self,
        table_id: str,
        state: State,
        seats: Sequence[SeatChannel],
        players: Sequence[PlayerInfo],
        time_control: TimeControl | None = None,
        reveal: bool = True,
    ) -> None:
        """``state``: a fresh deal of any game (``game.new_deal(seed, options, dealer)``).
        ``reveal``: whether each seat's TableEnd (and a view taken after the end) shows the
        whole deal. A competition turns it off: the board is still being played at other tables,
        and a bot must not learn its hands from one of them (the outcome keeps everything)."""
        self.game: Game = game_of(state)
        count = state.players
        if len(seats) != count or len(players) != count:
            raise ValueError(f"a {count}-player table needs {count} seats")
        self.table_id = table_id
        self.state = state
        self.seats = list(seats)
        self.players = tuple(players)
        self.time_control = time_control or TimeControl()
        self.reveal = reveal
        self.bank = [self.time_control.time_bank] * count
        self.answered: list[tuple[int, float]] = [(0, 0.0)] * count
        """Each player's last answer read in time: its request id and the seconds counted,
        told with the player's next request (:attr:`DecisionRequest.previous_elapsed`)."""
        self.sequence = [0] * count
        self.outcome = TableOutcome(table_id, state)

    def view(self, seat: int) -> ViewFn:
        game, state = self.game, self.state
        if self.reveal:
            return lambda: game.observe(state, seat)
        return lambda: game.sealed_observation(state, seat)

    async def run(self) -> TableOutcome:
        game, state = self.game, self.state
        for seat, channel in enumerate(self.seats):
            start = TableStart(
                self.table_id, seat, state.options, state.dealer, self.players,
                game.observe(state, seat), game=game,
            )
            await channel.start(start, self.view(seat))
        while state.to_act is not None:
            player = game.decider(state)
            assert player is not None
            await self._decide(state.to_act, player)
        await self._end()
        return self.outcome

    async def _decide(self, seat: int, player: int) -> None:
        """``player`` decides for ``seat`` (the same but for a seat no bot holds, like French
        Tarot's dummy): its bot is asked, its time bank drawn on, its infractions counted."""
        game, state = self.game, self.state
        channel = self.seats[player]
        legal = game.legal_actions(state)
        limit = self.time_control.per_decision
        request = DecisionRequest(
            self.table_id, seat, next_request_id(), state.phase, legal, limit, self.bank[player],
            game.hand(state, seat), game.decision_kind(state), player, *self.answered[player],
        )
        index = len(self.outcome.decisions)
        began = trio.current_time()
        answer: Answer | None = None
        problem: tuple[InfractionKind, str] | None = None
        with trio.CancelScope(deadline=began + limit + self.bank[player]) as scope:
            try:
                answer = await channel.ask(request)
            except BotGone as exc:
                problem = (InfractionKind.DISCONNECTED, f"the bot is gone: {exc}")
        seconds = trio.current_time() - began
        self.bank[player] = max(0.0, self.bank[player] - max(0.0, seconds - limit))
        self.answered[player] = (0, 0.0) if answer is None else (request.request_id, seconds)
        if scope.cancelled_caught:
            if channel.connected:
                problem = (InfractionKind.TIMEOUT,
                           f"no answer within {limit + request.time_bank:.3f} s")
            else:
                problem = (InfractionKind.DISCONNECTED,
                           "the bot was disconnected and did not come back in time")
        elif isinstance(answer, Malformed):
            problem = (InfractionKind.MALFORMED_ACTION, answer.reason)
        elif problem is None and answer not in legal:
            problem = _refusal(state, answer)
        infraction = None
        if problem is None:
            assert answer is not None and not isinstance(answer, Malformed)
            action = answer
        else:
            action = game.fallback_action(state)
            infraction = Infraction(player, problem[0], problem[1], index)
            self.outcome.infractions.append(infraction)
            await channel.notice(
                Notice(self.table_id, player, request.request_id, problem[0], problem[1], action)
            )
        events = game.apply(state, action, seat)
        self.outcome.decisions.append(DecisionLog(index, seat, action, seconds, infraction))
        # Written out here, not in a method of its own: a decision sends about five events,
        # most to every seat, and a call per event and seat cost a tenth of the runner's time.
        seats, sequence, table_id = self.seats, self.sequence, self.table_id
        everyone = range(state.players)
        for recipient, event in events:
            for target in everyone if recipient is None else (recipient,):
                number = sequence[target]
                sequence[target] = number + 1
                await seats[target].send(TableEvent(table_id, target, number, event))

    async def _end(self) -> None:
        game, state = self.game, self.state
        result = game.result(state)
        assert result is not None
        if not self.reveal:
            sealed = game.sealed_result(result)
            for seat, channel in enumerate(self.seats):
                await channel.end(TableEnd(self.table_id, seat, sealed))
            return
        record = self.outcome.record
        shown = game.revealed(state)
        for seat, channel in enumerate(self.seats):
            await channel.end(TableEnd(self.table_id, seat, result, shown, record))

    def next_sequence(self, seat: int) -> int:
        return self.sequence[seat]
