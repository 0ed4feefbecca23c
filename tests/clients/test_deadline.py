"""The SDK tells a bot its deadline: each request's view carries when it is due, on the bot's
clock, counted from the request's arrival (over the network and in-process alike), so that a
decision which waited for its turn knows the time it lost."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import trio

from arena.games.french_tarot import GameState, legal_actions
from arena.table import DecisionRequest, TableStart
from clients.local import LocalSeat
from clients.sdk import ArenaClient, Bot, TableView
from tests.search.positions import random_position, request_of, view_of


def asked_position() -> GameState:
    return next(s for s in (random_position(300 + n, 4, min_cards=4) for n in range(50))
                if s.to_act is not None and len(legal_actions(s)) >= 2)


def test_a_requests_view_is_due_at_its_arrival_plus_the_time_limit() -> None:
    state = asked_position()
    request = request_of(state, time_limit=0.8)
    view = view_of(state, request.player)
    asked = view.with_request(request, 5.0)
    assert asked.deadline == 5.8
    assert asked.time_left(5.25) == pytest.approx(0.55)
    assert asked.time_left(6.0) == pytest.approx(-0.2)
    assert view.with_request(request).deadline is None  # no time of arrival: no deadline
    assert view.with_request(request).time_left() is None
    (_, event), *_ = view.game.apply(state.copy(), request.legal_actions[0], request.seat)
    assert asked.apply(event).deadline is None  # answered: the next event ends the request


class Queued(Bot):
    """A plain bot (no worker thread: the SDK runs its decisions one after another) whose every
    decision takes 0.4 s of a fake clock; it records the deadline each one saw."""

    threaded = False

    def __init__(self, now: list[float]) -> None:
        self.now = now
        self.seen: list[tuple[str, float | None, float]] = []

    def decide(self, table: TableView, request: DecisionRequest) -> Any:
        self.seen.append((table.table_id, table.deadline, self.now[0]))
        self.now[0] += 0.4
        return request.legal_actions[0]


class Sent:
    """The stream the client answers on (it only needs an id and ``send``)."""

    id = 1

    def __init__(self) -> None:
        self.messages: list[object] = []

    def send(self, message: object) -> None:
        self.messages.append(message)


async def test_the_client_stamps_each_request_on_arrival_so_a_queued_one_has_less_time() -> None:
    state = asked_position()
    now = [100.0]
    bot = Queued(now)
    client = ArenaClient(bot, "127.0.0.1:1", "a-token")
    client.clock = lambda: now[0]
    stream = Sent()
    request = request_of(state, time_limit=1.0)
    view = view_of(state, request.player)
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        client._stream = stream  # type: ignore[assignment]
        for table_id in ("a", "b"):  # both arrive at 100.0, before either is decided
            client.tables[(table_id, request.player)] = dataclasses.replace(
                view, table_id=table_id)
            client._on_request(stream, dataclasses.replace(  # type: ignore[arg-type]
                request, table_id=table_id))
        client._decide_queued()  # as _receive does once what was read is in
    assert sorted(t for t, _, _ in bot.seen) == ["a", "b"]
    # Due at 101.0, less the tenth of the limit kept for the transport before any measure
    # (tests/clients/test_transport_time.py).
    assert [d for _, d, _ in bot.seen] == pytest.approx([100.9, 100.9])
    # The second began 0.4 s after it arrived: it has 0.6 s left, and its view says so.
    assert [began for *_, began in bot.seen] == [100.0, 100.4]
    assert len(stream.messages) == 2


async def test_an_in_process_seat_stamps_each_request_when_the_runner_asks() -> None:
    state = asked_position()
    request = request_of(state, time_limit=0.5)
    bot = Queued([0.0])
    seat = LocalSeat(bot)
    seat.clock = lambda: 7.0
    view = view_of(state, request.player)
    start = TableStart("t", request.player, state.options, state.dealer, view.players,
                       view.observation)
    await seat.start(start, lambda: view.observation)
    answer = await seat.ask(request)
    assert answer == request.legal_actions[0]
    assert bot.seen == [("t", 7.5, 0.0)]


async def test_a_decision_past_its_deadline_is_logged_by_the_bot_that_made_it(
        caplog: pytest.LogCaptureFixture) -> None:
    """Whether lateness is the bot's own doing or the transport's: the SDK says when a decision
    ended past the deadline by the bot's own clock."""
    state = asked_position()
    now = [10.0]
    bot = Queued(now)  # 0.4 s a decision
    client = ArenaClient(bot, "127.0.0.1:1", "a-token")
    client.clock = lambda: now[0]
    request = request_of(state, time_limit=0.3)
    client.tables[("a", request.player)] = dataclasses.replace(
        view_of(state, request.player), table_id="a")
    with caplog.at_level("WARNING", logger="clients.sdk"):
        async with trio.open_nursery() as nursery:
            client._nursery = nursery
            client._on_request(Sent(), dataclasses.replace(  # type: ignore[arg-type]
                request, table_id="a"))
            client._decide_queued()
    late = [r.getMessage() for r in caplog.records if "past its deadline" in r.getMessage()]
    assert len(late) == 1 and "100 ms past its deadline (400 ms after it arrived)" in late[0]
    caplog.clear()
    with caplog.at_level("WARNING", logger="clients.sdk"):
        async with trio.open_nursery() as nursery:
            client._nursery = nursery
            client._on_request(Sent(), dataclasses.replace(  # type: ignore[arg-type]
                request, table_id="a", request_id=2, time_limit=0.5))
            client._decide_queued()
    assert not [r for r in caplog.records if "past its deadline" in r.getMessage()]
