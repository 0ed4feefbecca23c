"""The bridges between trio and grpc.aio's asyncio loop (:mod:`arena.transport.bridge`).

grpc.aio only runs on asyncio, and the arena's core is trio. Every test here but the last few
runs on both bridges (the stepped one, and the thread one it falls back to): they pin down what
the arena relies on, whichever runs: asyncio's timers and wake-ups fire, calls between the two
sides keep their order and carry results and errors, neither side starves the other, shutdown
gives the gRPC side its grace, and a real grpc.aio server and client work on the loop. Then
what only one bridge promises, and how :func:`choose_bridge` picks one.

Clocks are real (trio's MockClock cannot see asyncio's timers), so every wait is short.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import grpc
import pytest
import trio
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from arena.transport import bridge as bridges
from arena.transport.bridge import (
    BRIDGES,
    ENV_VAR,
    Bridge,
    BridgeChoiceError,
    SteppedBridge,
    ThreadBridge,
    choose_bridge,
    open_bridge,
    reset_choice,
    stepped_bridge_problem,
)
from arena.transport.connections import Outbox

T = TypeVar("T")
MakeBridge = Callable[[trio.Nursery], Bridge]

# A hung driver must fail the test, not hang the suite.
TIMEOUT = 5.0


@pytest.fixture(params=sorted(BRIDGES))
def make_bridge(request: pytest.FixtureRequest) -> MakeBridge:
    """Each bridge in turn: every test that takes this runs on both."""
    return BRIDGES[request.param]


async def run_on(
    make_bridge: MakeBridge, main: Callable[[Bridge], Coroutine[Any, Any, T]], grace: float = 5.0
) -> T:
    """Run ``main(bridge)`` on a fresh bridge, whose trio tasks go to a nursery of their own."""
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            bridge = make_bridge(nursery)
            result = await bridge.drive(main(bridge), grace=grace)
            assert bridge.loop.is_closed()
            return result


async def test_drive_returns_when_its_coroutine_ends(make_bridge: MakeBridge) -> None:
    """``drive`` returns once its coroutine ends, even when asyncio has nothing else to do
    (it once waited for a wake-up that never came: forever, or a server's whole grace)."""

    async def main() -> str:
        await asyncio.sleep(0.01)
        return "result"

    async with trio.open_nursery() as nursery:
        bridge = make_bridge(nursery)
        with trio.move_on_after(0.5) as scope:
            result = await bridge.drive(main())
    assert not scope.cancelled_caught, "drive did not return after its coroutine ended"
    assert result == "result"


async def test_drive_raises_the_coroutine_exception_and_closes_the_loop(
    make_bridge: MakeBridge,
) -> None:
    """A gRPC side that fails (e.g. cannot bind) surfaces in trio, and leaves no open loop."""

    async def main() -> None:
        await asyncio.sleep(0)
        raise OSError("cannot listen")

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            bridge = make_bridge(nursery)
            with pytest.raises(OSError, match="cannot listen"):
                await bridge.drive(main())
    assert bridge.loop.is_closed()


# ----------------------------------------------------------------------------- asyncio timers
async def test_asyncio_sleep_completes_while_trio_is_idle(make_bridge: MakeBridge) -> None:
    """asyncio timers (grpc.aio's deadlines, the server's grace) fire though trio does the wait."""

    async def main(bridge: Bridge) -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await asyncio.sleep(0.05)
        return loop.time() - start

    elapsed = await run_on(make_bridge, main)
    assert 0.05 - 1e-6 <= elapsed < 0.5


async def test_call_later_fires(make_bridge: MakeBridge) -> None:
    """``loop.call_later`` callbacks run on time, in the order of their delays."""

    async def main(bridge: Bridge) -> list[tuple[str, float]]:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        fired: list[tuple[str, float]] = []
        start = loop.time()
        loop.call_later(0.04, lambda: fired.append(("late", loop.time() - start)))
        loop.call_later(0.02, lambda: fired.append(("early", loop.time() - start)))
        loop.call_later(0.05, done.set_result, None)
        await done
        return fired

    fired = await run_on(make_bridge, main)
    assert [name for name, _ in fired] == ["early", "late"]
    assert fired[0][1] >= 0.02 - 1e-6
    assert fired[1][1] >= 0.04 - 1e-6


# ------------------------------------------------------------------- wake-ups from threads
async def test_run_in_executor_wakes_the_loop(make_bridge: MakeBridge) -> None:
    """A worker thread's result reaches the loop: the driver must not wait in trio forever."""

    async def main(bridge: Bridge) -> str:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, time.sleep, 0.05)
        return await loop.run_in_executor(None, str.upper, "done")

    assert await run_on(make_bridge, main) == "DONE"


async def test_call_soon_threadsafe_from_a_thread_wakes_the_loop(make_bridge: MakeBridge) -> None:
    """grpc.aio's poller hands events over from its own thread; nothing else is pending here."""

    async def main(bridge: Bridge) -> int:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()

        def worker() -> None:
            time.sleep(0.05)
            loop.call_soon_threadsafe(future.set_result, 42)

        thread = threading.Thread(target=worker)
        thread.start()
        try:
            assert not loop._scheduled  # type: ignore[attr-defined]  # no timer to wake us
            return await future
        finally:
            thread.join()

    assert await run_on(make_bridge, main) == 42


# ----------------------------------------------------------------------- calls and ordering
async def test_to_trio_runs_in_order_in_trio(make_bridge: MakeBridge) -> None:
    """Servicers hand messages to trio with ``to_trio``; reordering would corrupt a stream.
    A later ``call_in_trio`` answers only once every call queued before it has run, in trio."""
    seen: list[int] = []
    in_trio: list[bool] = []

    def note(i: int) -> None:
        seen.append(i)
        in_trio.append(trio.lowlevel.current_trio_token() is token)

    async def main(bridge: Bridge) -> list[int]:
        for i in range(5):
            bridge.to_trio(note, i)
        await bridge.call_in_trio(lambda: None)
        assert seen == [0, 1, 2, 3, 4]
        for i in range(5, 10):
            bridge.to_trio(note, i)
            await asyncio.sleep(0)
        for i in range(10, 1000):
            bridge.to_trio(note, i)
        assert await bridge.call_in_trio(len, seen) == 1000
        return list(seen)

    token = trio.lowlevel.current_trio_token()
    assert await run_on(make_bridge, main) == list(range(1000))
    assert all(in_trio)


async def test_to_asyncio_runs_in_order(make_bridge: MakeBridge) -> None:
    """Trio pushes messages to the gRPC side with ``to_asyncio``; they must arrive in order."""
    seen: list[int] = []

    async def main(bridge: Bridge) -> list[int]:
        done = asyncio.Event()

        async def feeder() -> None:
            for i in range(20):
                bridge.to_asyncio(seen.append, i)
                if i % 3 == 0:
                    await trio.sleep(0)
                if i % 7 == 0:
                    await trio.sleep(0.002)
            bridge.to_asyncio(done.set)

        bridge.run_in_trio(feeder)
        await done.wait()
        return list(seen)

    assert await run_on(make_bridge, main) == list(range(20))


async def test_call_in_trio_round_trip(make_bridge: MakeBridge) -> None:
    """``call_in_trio`` returns a sync trio function's value, and its exception, to asyncio."""

    def double(x: int) -> int:
        return 2 * x

    def fail() -> None:
        raise ValueError("from trio")

    async def main(bridge: Bridge) -> list[int]:
        values = [await bridge.call_in_trio(double, i) for i in range(3)]
        with pytest.raises(ValueError, match="from trio"):
            await bridge.call_in_trio(fail)
        values.append(await bridge.call_in_trio(double, 21))  # still works after an error
        return values

    assert await run_on(make_bridge, main) == [0, 2, 4, 42]


async def test_run_in_trio_returns_value_and_exception(make_bridge: MakeBridge) -> None:
    """``run_in_trio`` awaits trio code (e.g. a table's reply) and brings back its outcome."""

    async def slow_double(x: int) -> int:
        await trio.sleep(0.01)
        return 2 * x

    async def slow_fail() -> None:
        await trio.sleep(0.01)
        raise KeyError("missing")

    async def main(bridge: Bridge) -> int:
        with pytest.raises(KeyError, match="missing"):
            await bridge.run_in_trio(slow_fail)
        return await bridge.run_in_trio(slow_double, 21)

    assert await run_on(make_bridge, main) == 42


async def _host_nursery(*, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
    async with trio.open_nursery() as nursery:
        task_status.started(nursery)
        await trio.sleep_forever()


async def test_run_in_trio_cancelled_task_gives_cancelled_future(make_bridge: MakeBridge) -> None:
    """A trio task cancelled under the gRPC side (server shutdown) cancels its future."""
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as outer:
            tasks: trio.Nursery = await outer.start(_host_nursery)
            bridge = make_bridge(tasks)  # run_in_trio's tasks, apart from the driver
            started = asyncio.Event()

            async def wait_forever() -> None:
                bridge.to_asyncio(started.set)
                await trio.sleep_forever()

            async def main() -> bool:
                future = bridge.run_in_trio(wait_forever)
                await started.wait()
                bridge.to_trio(tasks.cancel_scope.cancel)
                await asyncio.wait([future])
                return future.cancelled()

            assert await bridge.drive(main())


# --------------------------------------------------------------------------- failing calls
async def test_failing_to_trio_call_is_logged_and_driver_goes_on(
    make_bridge: MakeBridge, caplog: pytest.LogCaptureFixture
) -> None:
    """One bad hand-over must not take the gRPC server down: it is logged and skipped."""
    seen: list[str] = []

    def boom() -> None:
        raise RuntimeError("boom")

    async def main(bridge: Bridge) -> str:
        bridge.to_trio(seen.append, "before")
        bridge.to_trio(boom)
        bridge.to_trio(seen.append, "same iteration")
        await asyncio.sleep(0.01)
        bridge.to_trio(seen.append, "later")
        await asyncio.sleep(0)
        return "result"

    with caplog.at_level(logging.ERROR, logger="arena.transport.bridge"):
        assert await run_on(make_bridge, main) == "result"
    assert seen == ["before", "same iteration", "later"]
    errors = [r for r in caplog.records if r.name == "arena.transport.bridge"]
    assert len(errors) == 1
    assert errors[0].levelno == logging.ERROR
    assert errors[0].exc_info is not None
    assert isinstance(errors[0].exc_info[1], RuntimeError)


async def test_a_call_that_fails_again_and_again_logs_a_few_tracebacks_per_cause(
    make_bridge: MakeBridge, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hand-over that fails for every message a client sends is logged a few times per
    interval, not once per message; another function's failure is still told."""
    monkeypatch.setattr(bridges._call_errors, "_windows", {})

    def on_every_message() -> None:
        raise ValueError("again")

    def elsewhere() -> None:
        raise KeyError("once")

    async def main(bridge: Bridge) -> None:
        for _ in range(200):
            bridge.to_trio(on_every_message)
            await asyncio.sleep(0)
        bridge.to_trio(elsewhere)
        await asyncio.sleep(0.01)

    with caplog.at_level(logging.ERROR, logger="arena.transport.bridge"):
        await run_on(make_bridge, main)
    errors = [r for r in caplog.records if r.name == "arena.transport.bridge"]
    causes = [r.getMessage().rpartition("(")[2] for r in errors]
    assert causes.count("test_a_call_that_fails_again_and_again_logs_a_few_tracebacks_per_"
                        "cause.<locals>.on_every_message)") == bridges._call_errors.most
    assert [r.exc_info[1] for r in errors if r.exc_info and isinstance(
        r.exc_info[1], KeyError)] != []
    assert all(r.exc_info is not None for r in errors)


# ------------------------------------------------------------------------------- fairness
# Each side goes on until the other has made TICKS steps: a side that starves the other never
# ends (fail_after then fails the test), where a side that is only slowed down by a loaded
# machine ends a little later. No test here counts steps per second.
TICKS = 5


async def _ticks_in_trio(ticks: list[float], period: float, until: Callable[[], bool]) -> None:
    while not until():
        ticks.append(trio.current_time())
        await trio.sleep(period)


async def _ticks_in_asyncio(ticks: list[float], period: float, until: Callable[[], bool]) -> None:
    loop = asyncio.get_running_loop()
    while not until():
        ticks.append(loop.time())
        await asyncio.sleep(period)


async def test_both_sides_tick_together(make_bridge: MakeBridge) -> None:
    """Tables (trio) and streams (asyncio) run side by side: both make progress."""
    trio_ticks: list[float] = []
    asyncio_ticks: list[float] = []

    def both_ticked() -> bool:
        return len(trio_ticks) >= TICKS and len(asyncio_ticks) >= TICKS

    async def main(bridge: Bridge) -> None:
        await _ticks_in_asyncio(asyncio_ticks, 0.005, both_ticked)

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_ticks_in_trio, trio_ticks, 0.005, both_ticked)
            bridge = make_bridge(nursery)
            await bridge.drive(main(bridge))
    assert both_ticked()


async def test_trio_runs_while_asyncio_is_busy(make_bridge: MakeBridge) -> None:
    """An asyncio side that always has work ready must still let trio run."""
    trio_ticks: list[float] = []

    async def main(bridge: Bridge) -> int:
        spins = 0
        while len(trio_ticks) < TICKS:
            spins += 1
            await asyncio.sleep(0)  # always ready: the stepped driver never waits
        return spins

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_ticks_in_trio, trio_ticks, 0.005, lambda: len(trio_ticks) >= TICKS)
            bridge = make_bridge(nursery)
            spins = await bridge.drive(main(bridge))
    assert spins > 10


async def test_asyncio_runs_while_trio_is_busy(make_bridge: MakeBridge) -> None:
    """A trio side that always has work ready must not starve asyncio's timers."""
    asyncio_ticks: list[float] = []
    spins = 0

    def ticked() -> bool:
        return len(asyncio_ticks) >= TICKS

    async def spin() -> None:
        nonlocal spins
        while not ticked():
            spins += 1
            await trio.sleep(0)

    async def main(bridge: Bridge) -> None:
        await _ticks_in_asyncio(asyncio_ticks, 0.005, ticked)

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(spin)
            bridge = make_bridge(nursery)
            await bridge.drive(main(bridge))
    assert spins > 10


# --------------------------------------------------------------------------- cancellation
async def test_cancel_lets_the_coroutine_clean_up_then_closes_the_loop(
    make_bridge: MakeBridge,
) -> None:
    """On shutdown the gRPC side, told to stop, ends by itself (server.stop's own awaits)."""
    cleaned: list[str] = []
    with trio.fail_after(TIMEOUT):
        cancelled_at = trio.current_time() + 0.05
        with trio.move_on_after(0.05) as scope:
            async with trio.open_nursery() as nursery:
                bridge = make_bridge(nursery)
                stop = asyncio.Event()

                async def main() -> None:
                    try:
                        await stop.wait()
                        cleaned.append("stopped")
                    finally:
                        await asyncio.sleep(0.01)  # asyncio still runs in the grace period
                        cleaned.append("cleaned up")

                nursery.start_soon(bridge.drive, main())
                try:
                    await trio.sleep_forever()
                finally:
                    bridge.to_asyncio(stop.set)
    assert scope.cancelled_caught
    assert cleaned == ["stopped", "cleaned up"]
    assert trio.current_time() - cancelled_at < 1.0  # well within the 5 s grace
    assert bridge.loop.is_closed()


async def test_cancel_cancels_a_coroutine_that_ignores_the_stop_after_grace(
    make_bridge: MakeBridge,
) -> None:
    """A gRPC side that does not stop is cancelled after ``grace``, and its handlers run."""
    events: list[str] = []
    with trio.fail_after(TIMEOUT):
        with trio.CancelScope() as scope:
            async with trio.open_nursery() as nursery:
                bridge = make_bridge(nursery)

                async def main() -> None:
                    try:
                        while True:
                            await asyncio.sleep(1)
                    except asyncio.CancelledError:
                        await asyncio.sleep(0.01)  # cleanup on cancellation may still await
                        events.append("cancelled")
                        raise

                async def stop_soon() -> None:
                    await trio.sleep(0.02)
                    scope.cancel()

                nursery.start_soon(stop_soon)
                cancelled_at = trio.current_time() + 0.02
                await bridge.drive(main(), grace=0.1)
    elapsed = trio.current_time() - cancelled_at
    assert events == ["cancelled"]
    assert 0.1 - 0.01 <= elapsed < 1.0
    assert bridge.loop.is_closed()
    bridge.to_asyncio(events.append, "too late")  # a no-op once the loop is closed
    assert events == ["cancelled"]


# ----------------------------------------------------------------------------- Ctrl-C
async def test_grpc_side_code_is_protected_from_keyboard_interrupt(
    make_bridge: MakeBridge,
) -> None:
    """A KeyboardInterrupt raised in the middle of grpc.aio's own code breaks it (the process
    crashed at exit): asyncio code and the calls it makes to trio cannot be interrupted (they
    run KI-protected, or in a thread where signals never land), so trio hands a Ctrl-C to the
    main task, and shutdown then goes through cancellation."""
    seen: dict[str, bool] = {}

    def safe() -> bool:
        in_main_thread = threading.current_thread() is threading.main_thread()
        return not in_main_thread or trio.lowlevel.currently_ki_protected()

    def in_trio() -> None:
        seen["call from asyncio"] = safe()

    async def main(bridge: Bridge) -> None:
        seen["asyncio task"] = safe()
        asyncio.get_running_loop().call_soon(lambda: seen.setdefault("asyncio callback", safe()))
        await asyncio.sleep(0.01)
        await bridge.call_in_trio(in_trio)

    await run_on(make_bridge, main)
    assert seen == {"asyncio task": True, "asyncio callback": True, "call from asyncio": True}
    assert not trio.lowlevel.currently_ki_protected()  # only the driver, not all of trio


# ------------------------------------------------------------------------ running loop
async def test_running_loop_is_the_bridge_loop_only_inside_a_step(make_bridge: MakeBridge) -> None:
    """grpc.aio finds its loop with get_running_loop; trio code must not see asyncio running."""
    outside: list[str] = []

    def probe() -> None:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            outside.append("no loop")
        else:
            outside.append("loop")

    async def async_probe() -> None:
        await trio.sleep(0)
        probe()

    async def main(bridge: Bridge) -> bool:
        await bridge.call_in_trio(probe)
        await bridge.run_in_trio(async_probe)
        await asyncio.sleep(0.02)  # trio_probe runs meanwhile
        return asyncio.get_running_loop() is bridge.loop

    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            bridge = make_bridge(nursery)

            async def trio_probe() -> None:
                await trio.sleep(0.005)  # while the driver is in the middle of driving
                probe()

            nursery.start_soon(trio_probe)
            assert await bridge.drive(main(bridge))
    probe()
    assert outside == ["no loop"] * 4


# ----------------------------------------------------------------------------------- gRPC
async def test_grpc_aio_server_and_client_on_the_driven_loop(make_bridge: MakeBridge) -> None:
    """grpc.aio's poller integrates with the bridge's loop: a real Check call is answered."""
    assert await run_on(make_bridge, check_health) == health_pb2.HealthCheckResponse.SERVING


async def check_health(bridge: Bridge) -> int:
    """A grpc.aio health server and a client of it, on the bridge's loop: SERVING, three times."""
    server = grpc.aio.server()
    servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        await servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            statuses = []
            for _ in range(3):
                reply = await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=3)
                statuses.append(reply.status)
            assert statuses == [health_pb2.HealthCheckResponse.SERVING] * 3
            return int(reply.status)
    finally:
        await server.stop(0)


# ------------------------------------------------------------------ what one bridge promises
async def test_stepped_bridge_runs_calls_to_trio_right_after_the_iteration() -> None:
    """On the stepped bridge both sides share one thread: a call to trio runs right after the
    loop iteration that made it, never during it (what lets them share plain lists)."""
    seen: list[int] = []
    threads: set[int] = set()

    async def main(bridge: Bridge) -> list[int]:
        threads.add(threading.get_ident())
        for i in range(5):
            bridge.to_trio(seen.append, i)
        assert seen == []  # not during the iteration...
        await asyncio.sleep(0)
        assert seen == [0, 1, 2, 3, 4]  # ...but right after it
        bridge.to_trio(lambda: threads.add(threading.get_ident()))
        await asyncio.sleep(0)
        return list(seen)

    assert await run_on(SteppedBridge, main) == [0, 1, 2, 3, 4]
    assert threads == {threading.get_ident()}


def count_pokes(monkeypatch: pytest.MonkeyPatch, bridge: Bridge, pokes: list[int]) -> None:
    """Count in ``pokes`` the wake-up bytes written to the loop's self-pipe."""
    loop: Any = bridge.loop
    monkeypatch.setattr(loop, "_write_to_self",
                        lambda real=loop._write_to_self: (pokes.append(1), real())[1])


async def test_stepped_bridge_takes_what_woken_trio_tasks_post_without_a_wake_up_byte(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A trio task that a call from asyncio woke, and that answers at once (a table an answer
    reached, posting its next request), is heard by the loop in the same steps: the driver
    stays awake for that round, and no byte goes through the loop's self-pipe. A call from
    trio while the driver waits still wakes it through the pipe."""
    pokes: list[int] = []

    async def main(bridge: Bridge) -> list[str]:
        count_pokes(monkeypatch, bridge, pokes)
        heard: list[str] = []
        for i in range(5):
            answered = asyncio.Event()
            woken = trio.Event()

            async def table(woken: trio.Event = woken, answered: asyncio.Event = answered,
                            i: int = i) -> None:
                await woken.wait()
                bridge.to_asyncio(lambda: (heard.append(f"posted {i}"), answered.set()))

            bridge.nursery.start_soon(table)
            await asyncio.sleep(0.01)  # the table waits; so does the driver
            bridge.to_trio(woken.set)
            await answered.wait()
        assert pokes == []
        late = asyncio.Event()

        async def later() -> None:
            await trio.sleep(0.01)
            bridge.to_asyncio(late.set)

        bridge.nursery.start_soon(later)
        await late.wait()
        heard.append(f"pokes {len(pokes)}")
        return heard

    assert await run_on(SteppedBridge, main) == [*(f"posted {i}" for i in range(5)), "pokes 1"]


async def test_posting_scope_runs_its_calls_as_it_ends_on_the_stepped_bridge(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What a trio task posts inside ``posting()`` has run in asyncio by the time the scope
    ends (a table's request is written in the round that posted it), in order, after what
    was queued before it, with no wake-up byte to the waiting driver; a nested scope leaves
    the running to the outer one; a call from trio made in a step (to which a scope adds
    nothing) runs in that step."""
    pokes: list[int] = []

    async def main(bridge: Bridge) -> list[str]:
        count_pokes(monkeypatch, bridge, pokes)
        seen: list[str] = []
        done = asyncio.Event()

        async def table() -> None:
            await trio.sleep(0.01)  # the driver waits for its descriptor meanwhile
            with bridge.posting():
                bridge.to_asyncio(seen.append, "request")
                with bridge.posting():
                    bridge.to_asyncio(seen.append, "nested")
                seen.append("inner scope ended")
                bridge.to_asyncio(seen.append, "last")
            seen.append("scope ended")
            with bridge.posting():
                bridge.to_asyncio(done.set)

        bridge.nursery.start_soon(table)
        await done.wait()
        assert pokes == []

        def in_a_step() -> None:  # a call to trio from asyncio: the step runs what it posts
            with bridge.posting():
                bridge.to_asyncio(seen.append, "from a step")
            seen.append("step's scope ended")

        stepped = asyncio.Event()
        bridge.to_trio(in_a_step)
        bridge.to_trio(bridge.to_asyncio, stepped.set)
        await stepped.wait()
        return seen

    assert await run_on(SteppedBridge, main) == [
        "inner scope ended", "request", "nested", "last", "scope ended",
        "step's scope ended", "from a step",
    ]


async def test_posting_scope_wakes_the_driver_for_what_its_calls_leave_to_it(
        make_bridge: MakeBridge) -> None:
    """A call run as a posting scope ends may leave work for the driver: a timer sooner than
    the one it waits for, a writer waiting for trio's round (``after_trio``), more callbacks
    than the scope runs, the end of the coroutine it drives. Each must still happen (on the
    thread bridge, the scope does nothing and the loop runs by itself)."""

    async def main(bridge: Bridge) -> str:
        loop = asyncio.get_running_loop()
        loop.call_later(60, lambda: None)  # the driver waits for this timer, not sooner
        fired = asyncio.Event()
        after = asyncio.Event()
        chain: list[int] = []

        async def wait_for_trio() -> None:
            await bridge.after_trio()
            after.set()

        chained = asyncio.Event()

        def many(n: int) -> None:  # more callbacks in a row than a scope runs
            chain.append(n)
            if n < 3 * bridges.READY_AT_ONCE:
                loop.call_soon(many, n + 1)
            else:
                chained.set()

        async def post(fn: Callable[[], object]) -> None:
            await trio.sleep(0.01)  # the driver waits meanwhile
            with bridge.posting():
                bridge.to_asyncio(fn)

        bridge.to_trio(bridge.nursery.start_soon, post, lambda: loop.call_later(0.01, fired.set))
        await fired.wait()
        bridge.to_trio(bridge.nursery.start_soon, post, lambda: loop.create_task(wait_for_trio()))
        await after.wait()
        bridge.to_trio(bridge.nursery.start_soon, post, lambda: many(0))
        await chained.wait()
        assert chain == list(range(3 * bridges.READY_AT_ONCE + 1))
        finished = asyncio.Event()
        bridge.to_trio(bridge.nursery.start_soon, post, finished.set)
        await finished.wait()  # the coroutine ends in the scope: drive must return
        return "all done"

    assert await run_on(make_bridge, main) == "all done"


async def test_thread_bridge_runs_asyncio_in_a_thread_of_its_own() -> None:
    """On the thread bridge asyncio runs in its own thread, and calls to trio run in trio's:
    trio goes on while the gRPC side is blocked (as a slow servicer would be)."""
    where: dict[str, int] = {}
    trio_ticks: list[float] = []
    done = threading.Event()

    async def main(bridge: Bridge) -> bool:
        where["asyncio"] = threading.get_ident()
        await bridge.call_in_trio(lambda: where.setdefault("call to trio", threading.get_ident()))
        seen = len(trio_ticks)
        deadline = time.monotonic() + TIMEOUT
        while len(trio_ticks) < seen + TICKS and time.monotonic() < deadline:
            time.sleep(0.001)  # blocking, not awaiting: the loop is held up, trio is not
        done.set()
        return len(trio_ticks) >= seen + TICKS

    with trio.fail_after(TIMEOUT * 2):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_ticks_in_trio, trio_ticks, 0.005, done.is_set)
            bridge = ThreadBridge(nursery)
            assert await bridge.drive(main(bridge)), "trio stood still while asyncio blocked"
    assert where["asyncio"] != threading.get_ident()
    assert where["call to trio"] == threading.get_ident()


def test_outbox_loses_nothing_when_both_sides_run_at_once() -> None:
    """On the thread bridge a table (trio) puts into an Outbox while the stream's writer
    (asyncio) takes from it, at the same time: no message may be lost or reordered, and no
    wake-up (the writer waits for one whenever it has taken everything)."""
    count = 20_000
    woken = threading.Event()

    def wake() -> None:
        woken.set()
        time.sleep(0)  # the real wake-up writes to the loop's self-pipe: the GIL changes hands

    outbox = Outbox(wake, limit=1 << 30)
    got: list[bytes] = []
    stalled: list[int] = []

    def writer() -> None:
        while len(got) < count:
            if not woken.wait(2.0):
                stalled.append(len(got))
                return
            woken.clear()
            got.extend(outbox.take())

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible: races show at once
    try:
        thread = threading.Thread(target=writer)
        thread.start()
        for i in range(count):
            if i % 3:
                outbox.put(b"%d" % i)
            else:
                outbox.extend([b"%d" % i])
        thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not stalled, f"the writer was never woken for what came after message {stalled[0]}"
    assert got == [b"%d" % i for i in range(count)]
    assert outbox.queued_bytes == 0


# ---------------------------------------------------------------------------- the choice
@pytest.fixture
def fresh_choice(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No TAROT_ARENA_BRIDGE, and a probe that runs anew (before and after the test, which may
    change asyncio)."""
    monkeypatch.delenv(ENV_VAR, raising=False)
    reset_choice()
    yield
    reset_choice()


def messages(caplog: pytest.LogCaptureFixture) -> list[tuple[int, str]]:
    return [(r.levelno, r.getMessage()) for r in caplog.records if r.name == bridges.__name__]


def test_the_stepped_bridge_is_chosen_where_it_works(
    fresh_choice: None, caplog: pytest.LogCaptureFixture
) -> None:
    """On this Python the private names are there and work: the fast bridge, said once."""
    assert stepped_bridge_problem() is None
    with caplog.at_level(logging.INFO, logger=bridges.__name__):
        assert choose_bridge() is SteppedBridge
        assert choose_bridge() is SteppedBridge
    assert len(messages(caplog)) == 1
    level, text = messages(caplog)[0]
    assert level == logging.INFO
    assert "stepped bridge" in text


@pytest.mark.parametrize(("value", "chosen"), [
    ("thread", ThreadBridge), ("stepped", SteppedBridge), ("auto", SteppedBridge),
    ("", SteppedBridge), (" Thread ", ThreadBridge),
])
def test_the_environment_variable_forces_a_bridge(
    fresh_choice: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    value: str, chosen: type[Bridge],
) -> None:
    monkeypatch.setenv(ENV_VAR, value)
    with caplog.at_level(logging.INFO, logger=bridges.__name__):
        assert choose_bridge() is chosen
    if value.strip() in ("thread", "Thread", "stepped"):
        assert ENV_VAR in messages(caplog)[0][1]


@pytest.mark.parametrize("value", ["threads", "fast", "1", "stepped,thread"])
def test_a_bad_value_of_the_environment_variable_is_a_clear_error(
    fresh_choice: None, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv(ENV_VAR, value)
    with pytest.raises(BridgeChoiceError) as caught:
        choose_bridge()
    assert isinstance(caught.value, ValueError)  # one line on the command line
    assert str(caught.value) == (
        f"{ENV_VAR}={value!r} names no bridge: expected auto, stepped or thread"
    )


async def test_a_bad_value_stops_the_arena_before_it_serves(
    fresh_choice: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The arena refuses to start rather than guess (the CLI prints the line, status 1)."""
    monkeypatch.setenv(ENV_VAR, "threads")
    async with trio.open_nursery() as nursery:
        with pytest.raises(BridgeChoiceError, match="names no bridge"):
            open_bridge(nursery)


def _run_once_that_does_nothing(self: asyncio.BaseEventLoop) -> None:
    """A ``_run_once`` that kept its name but not its meaning."""


def _no_fileno(self: object) -> int:
    """A selector with no descriptor to wait on (select or poll, as on Windows)."""
    raise AttributeError(f"{type(self).__name__!r} object has no attribute 'fileno'")


@pytest.mark.parametrize(("owner", "name", "replacement", "reason"), [
    (asyncio.BaseEventLoop, "_run_once", None, "BaseEventLoop._run_once is missing"),
    (asyncio.events, "_set_running_loop", None, "events._set_running_loop is missing"),
    (asyncio.BaseEventLoop, "_run_once", _run_once_that_does_nothing,
     "a step did not run the ready callback"),
    (bridges._NonBlockingSelector, "fileno", _no_fileno,
     "has no file descriptor to wait on"),
])
def test_the_thread_bridge_is_chosen_when_the_private_names_are_missing_or_wrong(
    fresh_choice: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
    owner: Any, name: str, replacement: Any, reason: str,
) -> None:
    """A Python whose asyncio insides changed costs speed, never correctness: the probe finds
    out (by the names, and by a real step), and the thread bridge takes over, said once as a
    warning with the reason. Forcing the stepped bridge there is an error, not a crash later."""
    if replacement is None:
        monkeypatch.delattr(owner, name)
    else:
        monkeypatch.setattr(owner, name, replacement)
    problem = stepped_bridge_problem()
    assert problem is not None
    assert reason in problem
    with caplog.at_level(logging.INFO, logger=bridges.__name__):
        assert choose_bridge() is ThreadBridge
        assert choose_bridge() is ThreadBridge
    assert len(messages(caplog)) == 1
    level, text = messages(caplog)[0]
    assert level == logging.WARNING
    assert "thread bridge" in text
    assert reason in text
    monkeypatch.setenv(ENV_VAR, "stepped")
    with pytest.raises(BridgeChoiceError, match="cannot run on this Python"):
        choose_bridge()


async def test_the_fallback_serves_grpc(
    fresh_choice: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bridge the factory falls back to on a platform where the stepped one cannot wait on
    the loop's selector (as on Windows) really serves gRPC."""
    monkeypatch.setattr(bridges._NonBlockingSelector, "fileno", _no_fileno)
    with trio.fail_after(TIMEOUT):
        async with trio.open_nursery() as nursery:
            bridge = open_bridge(nursery)
            assert isinstance(bridge, ThreadBridge)
            status = await bridge.drive(check_health(bridge))
    assert status == health_pb2.HealthCheckResponse.SERVING


async def test_stepped_bridge_gives_no_trio_round_after_a_call_that_woke_no_trio_task(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A call to trio that returns False did its work at once (the SDK reading a message in the
    call that brings it, its answers posted back to asyncio): once the loop has nothing ready,
    the driver waits at once; after any other call it gives trio's woken tasks their rounds
    first (checkpoints of the driver's)."""
    checkpoints = 0
    real_checkpoint = trio.lowlevel.checkpoint

    async def counted() -> None:
        nonlocal checkpoints
        checkpoints += 1
        await real_checkpoint()

    monkeypatch.setattr(trio.lowlevel, "checkpoint", counted)

    async def main(bridge: Bridge) -> list[int]:
        seen = []
        for quiet in (False, None, False):
            before = checkpoints
            bridge.to_trio(lambda quiet=quiet: quiet)
            await asyncio.sleep(0.005)
            seen.append(checkpoints - before)
        return seen

    quiet, other, quiet_again = await run_on(SteppedBridge, main)
    assert quiet == quiet_again == 0
    assert other >= 1
