"""Plays one deal with a seat channel per seat: time control, checks, fallbacks, infractions.

The runner knows nothing of gRPC: a seat is anything with the :class:`SeatChannel` methods, so
timeouts, illegal answers and disconnections are tested with scripted fake seats and trio's fake
clock. Whatever a seat does, the deal completes: a missing, late, illegal or malformed answer is
recorded as an infraction with its reason and replaced by the deterministic
:func:`fallback_action`; what that costs the bot is the tournament's decision.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import trio

from arena.games.french_tarot import (
    Action,
    Deal,
    DealRecord,
    DealResult,
    GameState,
    Observation,
    Play,
    TableOptions,
    apply,
    legal_actions,
    observe,
)
from arena.games.french_tarot.cards import DECK_SIZE, cards_of
from arena.games.french_tarot.game import explain_illegal

from .events import events_after
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


def fallback_action(state: GameState) -> Action:
    """What the arena plays for a seat that did not answer properly: documented and fixed.

    The lowest legal card when playing (never a poignée), otherwise the first legal action in
    the engine's order: pass when bidding, the lowest callable King, the lowest discardable card,
    no chelem, and the highest trump left to hide from a declared poignée (it shows the lowest).
    """
    legal = legal_actions(state)
    for action in legal:
        if isinstance(action, Play):
            return action
    return legal[0]


def _refusal(state: GameState, answer: object) -> tuple[InfractionKind, str]:
    """Why an answer that is not in the legal list is refused.

    A seat may return anything, even a card that does not exist, which the rules cannot explain:
    that is malformed, not illegal, and must not stop the deal.
    """
    if not isinstance(answer, Action):
        return (InfractionKind.MALFORMED_ACTION, f"{answer!r} is not an action")
    card = getattr(answer, "card", 0)
    if not (isinstance(card, int) and 0 <= card < DECK_SIZE):
        return (InfractionKind.MALFORMED_ACTION,
                f"card {card!r} does not exist: cards are numbered 0..{DECK_SIZE - 1}")
    try:
        return (InfractionKind.ILLEGAL_ACTION, explain_illegal(state, answer))
    except (AttributeError, KeyError, TypeError, ValueError):  # e.g. Bid(7): no such contract
        return (InfractionKind.MALFORMED_ACTION, f"{answer!r} is not a valid action")


@dataclass(frozen=True, slots=True)
class DecisionLog:
    index: int
    seat: int
    action: Action
    seconds: float
    """Time the seat took, measured on the server."""
    infraction: Infraction | None = None

    @property
    def fallback(self) -> bool:
        return self.infraction is not None


@dataclass(slots=True)
class TableOutcome:
    table_id: str
    state: GameState
    decisions: list[DecisionLog] = field(default_factory=list)
    infractions: list[Infraction] = field(default_factory=list)

    @property
    def result(self) -> DealResult:
        assert self.state.result is not None
        return self.state.result

    @property
    def record(self) -> DealRecord:
        return DealRecord.of(self.state)


def sealed_result(result: DealResult) -> DealResult:
    """What a seat is told of a deal's end when the deal is not revealed: how it ended and the
    scores. The rest (the summary's points and oudlers, who had a petit sec) tells of the
    hands."""
    return DealResult(result.outcome, result.scores)


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
        deal: Deal,
        options: TableOptions,
        seats: Sequence[SeatChannel],
        players: Sequence[PlayerInfo],
        time_control: TimeControl | None = None,
        reveal: bool = True,
    ) -> None:
        """``reveal``: whether each seat's TableEnd (and a view taken after the end) shows the
        whole deal. A competition turns it off: the board is still being played at other tables,
        and a bot must not learn its hands from one of them (the outcome keeps everything)."""
        if len(seats) != options.players or len(players) != options.players:
            raise ValueError(f"a {options.players}-player table needs {options.players} seats")
        self.table_id = table_id
        self.state = GameState(deal, options)
        self.seats = list(seats)
        self.players = tuple(players)
        self.time_control = time_control or TimeControl()
        self.reveal = reveal
        self.bank = [self.time_control.time_bank] * options.players
        self.sequence = [0] * options.players
        self.outcome = TableOutcome(table_id, self.state)

    def view(self, seat: int) -> ViewFn:
        if self.reveal:
            return lambda: observe(self.state, seat)
        return lambda: self._sealed_view(seat)

    def _sealed_view(self, seat: int) -> Observation:
        """``observe`` without what only the end of the deal shows: the deal, the chien of a
        Garde Sans or Contre, another seat's discard, the detailed result."""
        view = observe(self.state, seat)
        if not self.state.is_over:
            return view
        state = self.state
        chien_shown = state.contract is not None and state.contract.chien_shown
        called = state.called_card
        partner_known = called is not None and (
            state.partner_revealed or (chien_shown and bool(state.chien >> called & 1))
        )
        return dataclasses.replace(
            view,
            deal=None,
            result=sealed_result(self.outcome.result),
            chien=view.chien if chien_shown else None,
            discard=view.discard if seat == state.taker else None,
            partner=view.partner if partner_known else None,
            partner_known=partner_known,
        )

    async def run(self) -> TableOutcome:
        state = self.state
        for seat, channel in enumerate(self.seats):
            start = TableStart(
                self.table_id, seat, state.options, state.dealer, self.players,
                observe(state, seat),
            )
            await channel.start(start, self.view(seat))
        while state.to_act is not None:
            await self._decide(state.to_act)
        await self._end()
        return self.outcome

    async def _decide(self, seat: int) -> None:
        state = self.state
        channel = self.seats[seat]
        legal = legal_actions(state)
        limit = self.time_control.per_decision
        request = DecisionRequest(
            self.table_id, seat, next_request_id(), state.phase, legal, limit, self.bank[seat],
            tuple(cards_of(state.hands[seat])),
        )
        index = len(self.outcome.decisions)
        began = trio.current_time()
        answer: Answer | None = None
        problem: tuple[InfractionKind, str] | None = None
        with trio.CancelScope(deadline=began + limit + self.bank[seat]) as scope:
            try:
                answer = await channel.ask(request)
            except BotGone as exc:
                problem = (InfractionKind.DISCONNECTED, f"the bot is gone: {exc}")
        seconds = trio.current_time() - began
        self.bank[seat] = max(0.0, self.bank[seat] - max(0.0, seconds - limit))
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
        action: Action
        infraction = None
        if problem is None:
            assert answer is not None and not isinstance(answer, Malformed)
            action = answer
        else:
            action = fallback_action(state)
            infraction = Infraction(seat, problem[0], problem[1], index)
            self.outcome.infractions.append(infraction)
            await channel.notice(
                Notice(self.table_id, seat, request.request_id, problem[0], problem[1], action)
            )
        tricks_before = len(state.tricks)
        apply(state, action, seat)
        self.outcome.decisions.append(DecisionLog(index, seat, action, seconds, infraction))
        for recipient, event in events_after(state, seat, action, tricks_before):
            for target in range(state.players) if recipient is None else (recipient,):
                await self._send(target, event)

    async def _send(self, seat: int, event: object) -> None:
        message = TableEvent(self.table_id, seat, self.sequence[seat], event)  # type: ignore[arg-type]
        self.sequence[seat] += 1
        await self.seats[seat].send(message)

    async def _end(self) -> None:
        state = self.state
        assert state.result is not None
        if not self.reveal:
            result = sealed_result(state.result)
            for seat, channel in enumerate(self.seats):
                await channel.end(TableEnd(self.table_id, seat, result, None, (), None))
            return
        record = self.outcome.record
        discard = tuple(cards_of(state.discard))
        for seat, channel in enumerate(self.seats):
            await channel.end(
                TableEnd(self.table_id, seat, state.result, state.deal, discard, record)
            )

    def next_sequence(self, seat: int) -> int:
        return self.sequence[seat]
