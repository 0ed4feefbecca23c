"""The SDK learns what the transport takes of a limit (the arena's time for an answer less its
own) and keeps that much in hand in each request's deadline."""

from __future__ import annotations

import dataclasses
import random

import pytest
import trio

from arena.table import DecisionRequest, InfractionKind, Notice
from clients.sdk import ArenaClient
from clients.sdk._transport_time import MAX_SHARE, UNMEASURED_SHARE, WINDOW, TransportTime
from tests.clients.test_deadline import Queued, Sent, asked_position
from tests.search.positions import request_of, view_of


def test_the_estimate_is_the_largest_of_the_last_measures() -> None:
    transport = TransportTime(window=3)
    assert transport.estimate == 0.0
    for arena, own, estimate in [(0.30, 0.25, 0.05), (0.50, 0.48, 0.05), (0.90, 0.80, 0.10),
                                 (0.40, 0.39, 0.10), (0.40, 0.38, 0.10), (0.20, 0.19, 0.02),
                                 (0.1, 0.2, 0.02)]:
        transport.measured(arena, own)
        assert transport.estimate == pytest.approx(estimate)
    # An answer the bot took longer over than the arena counted (clocks' grain): no negative.
    transport.measured(0.1, 0.2)
    transport.measured(0.1, 0.2)
    assert transport.estimate == 0.0


def test_a_spike_is_forgotten_after_a_window_of_measures() -> None:
    transport = TransportTime()
    transport.measured(1.0, 0.0)
    for n in range(WINDOW - 1):
        transport.measured(0.011, 0.010)
        assert transport.estimate == 1.0, n
    transport.measured(0.011, 0.010)
    assert transport.estimate == pytest.approx(0.001)


def test_the_estimate_kept_as_measures_come_is_the_largest_of_the_window() -> None:
    """The largest is kept as measures come and go, not taken over the window per request:
    the same as the window's max at every step, ties and evictions of the largest included."""
    rnd = random.Random(27)
    for window in (1, 2, 3, 8):
        transport = TransportTime(window=window)
        last: list[float] = []
        for _ in range(400):
            measure = rnd.choice((0.0, 0.001, 0.002, 0.005, rnd.random() / 100))
            transport.measured(measure, 0.0)
            last = [*last, measure][-window:]
            assert transport.estimate == max(last)
            assert transport.kept(0.004) == min(max(last), 0.004 * MAX_SHARE)


def test_what_is_kept_in_hand_starts_at_a_share_and_never_passes_half_the_limit() -> None:
    transport = TransportTime()
    assert transport.kept(0.1) == pytest.approx(0.1 * UNMEASURED_SHARE)
    transport.measured(0.031, 0.001)
    assert transport.kept(0.1) == pytest.approx(0.03)
    assert transport.kept(0.04) == pytest.approx(0.04 * MAX_SHARE)
    with pytest.raises(ValueError, match="window"):
        TransportTime(window=0)


def seated(bot: Queued, now: list[float], time_limit: float, request_id: int
           ) -> tuple[ArenaClient, Sent, DecisionRequest]:
    """A client of ``bot`` on the fake clock ``now``, seated at table "a", answering on a
    recording stream, and a request there."""
    state = asked_position()
    client = ArenaClient(bot, "127.0.0.1:1", "a-token")
    client.clock = lambda: now[0]
    request = dataclasses.replace(request_of(state, time_limit=time_limit), table_id="a",
                                  request_id=request_id)
    client.tables[("a", request.player)] = dataclasses.replace(
        view_of(state, request.player), table_id="a")
    return client, Sent(), request


async def test_a_request_measures_the_previous_answer_and_its_deadline_keeps_that_in_hand(
) -> None:
    """Request 1 arrives at 100.0 and the bot answers at 100.4 by its clock; the arena counted
    0.46 s for it, so the transport took 0.06 s, which request 2's deadline keeps in hand."""
    now = [100.0]
    bot = Queued(now)  # 0.4 s a decision, on the fake clock
    client, stream, first = seated(bot, now, 1.0, 1)
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        client._stream = stream  # type: ignore[assignment]
        client._on_request(stream, first)  # type: ignore[arg-type]
        client._decide_queued()
        now[0] = 101.0
        second = dataclasses.replace(first, request_id=2, previous_request_id=1,
                                     previous_elapsed=0.46)
        client._on_request(stream, second)  # type: ignore[arg-type]
        client._decide_queued()
    # Before any measure, a tenth of the limit; then the transport's own 0.06 s.
    assert [deadline for _, deadline, _ in bot.seen] == pytest.approx(
        [100.0 + 1.0 * (1 - UNMEASURED_SHARE), 101.94])
    assert client.transport_time.estimate == pytest.approx(0.06)
    assert len(stream.messages) == 2


async def test_a_timeout_of_an_answer_sent_in_time_is_a_measure_too() -> None:
    """The arena waited its whole 0.3 s for an answer sent 0.2 s after its request arrived:
    the transport took at least 0.1 s (no later request tells it, the answer was dropped)."""
    now = [5.0]

    class Quick(Queued):
        def decide(self, table, request):  # type: ignore[no-untyped-def]
            now[0] += 0.2
            return request.legal_actions[0]

    client, stream, request = seated(Quick(now), now, 0.3, 7)
    async with trio.open_nursery() as nursery:
        client._nursery = nursery
        client._stream = stream  # type: ignore[assignment]
        client._on_request(stream, request)  # type: ignore[arg-type]
        client._decide_queued()
        await client._dispatch(stream, Notice(  # type: ignore[arg-type]
            "a", request.player, 7, InfractionKind.TIMEOUT, "no answer within 0.300 s"))
        # A notice of a request this bot never answered measures nothing.
        await client._dispatch(stream, Notice(  # type: ignore[arg-type]
            "a", request.player, 8, InfractionKind.TIMEOUT, "no answer within 0.300 s"))
    assert client.transport_time.estimate == pytest.approx(0.1)
