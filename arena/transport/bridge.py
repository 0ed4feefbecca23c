"""Calls between the arena's trio core and grpc.aio's asyncio loop: one interface, two bridges.

grpc.aio runs on asyncio only, and the arena's core is trio. The rest of the transport speaks
only :class:`Bridge`: :meth:`~Bridge.drive` runs the gRPC side's main coroutine on the loop,
:meth:`~Bridge.to_trio` / :meth:`~Bridge.call_in_trio` / :meth:`~Bridge.run_in_trio` go from
asyncio to trio, :meth:`~Bridge.to_asyncio` the other way; calls in one direction keep their
order. Two bridges implement it:

* :class:`SteppedBridge`, the fast one: one thread, where a trio task runs the asyncio loop one
  iteration at a time and waits for its file descriptors in trio. No second thread means no GIL
  hand-over and no cross-thread wake-up per message: with the same batching on both sides,
  ``bench/arena.py`` at 16 tables went from 0.41-0.45 of the echo floor (thread) to 0.48-0.50
  (stepped) when it was built; ``--bridge`` measures both today (docs/measurements.md, "Arena
  over gRPC"): the thread bridge spends 6-24 % more server CPU per decision. It needs what
  asyncio does not make public: ``BaseEventLoop._run_once``, ``_ready``, ``_scheduled`` and
  ``asyncio.events._set_running_loop`` (there since Python 3.5), and a selector with a file
  descriptor trio can wait on (epoll, kqueue). Its price: trio code that blocks the thread (it
  never should) also holds up gRPC's reads, writes and keepalives.
* :class:`ThreadBridge`, the fallback: the loop runs in a thread of its own (the design
  ``../shared/TRANSPORT.md`` measured best among those it tried), calls crossing with
  ``TrioToken.run_sync_soon`` and ``loop.call_soon_threadsafe``, one wake-up per burst. Public
  API only: slower, never wrong.

:func:`open_bridge` picks one: the stepped bridge when :func:`stepped_bridge_problem` finds the
private names present and working (a real smoke step on a real loop, not a version number),
else the thread bridge, and says once in the log which it took and why. The environment
variable ``TAROT_ARENA_BRIDGE`` (``stepped``, ``thread`` or ``auto``) forces one, for tests,
benches and anyone hitting a bug in one of them. A Python upgrade that changes asyncio's
insides thus costs speed, never correctness.

Both sides may share plain objects only where every write is atomic or guarded by a lock: on
the thread bridge they really do run at the same time (see ``connections.Outbox``).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import logging
import os
import select
import selectors
import threading
from asyncio import events
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar, Final, TypeVar

import trio

from .log_limits import LogLimiter

log = logging.getLogger(__name__)
_call_errors = LogLimiter(log)
T = TypeVar("T")

ENV_VAR: Final = "TAROT_ARENA_BRIDGE"
CHOICES: Final = ("auto", "stepped", "thread")
ITERATIONS_PER_STEP: Final = 16
"""At most this many loop iterations in a row (stepped bridge) before trio runs again: a step
runs asyncio until it has nothing ready, so that one message read, its hand-over to trio and a
write woken by it take one trio round, not one each; the cap keeps trio from starving."""
READY_AT_ONCE: Final = 64
"""At most this many of the loop's ready callbacks run in a call from trio (the stepped
bridge's :meth:`SteppedBridge._run_ready`); the driver runs the rest."""
CLOSE_ITERATIONS: Final = 3
"""Loop iterations given to cancelled tasks to unwind before the loop is closed."""
THREAD_STOP_WAIT: Final = 10.0
"""Seconds the thread bridge waits for its loop thread to finish once told to stop; a loop
stuck in a blocking call past that is left behind (a daemon thread) rather than hang trio."""


class BridgeChoiceError(ValueError):
    """``TAROT_ARENA_BRIDGE`` names no bridge, or one that cannot run on this Python."""


class Bridge(abc.ABC):
    """The asyncio loop grpc.aio runs on, and calls between it and trio.

    Create it in trio (with :func:`open_bridge`) and run :meth:`drive` as a task for as long
    as gRPC is served. ``nursery`` takes the tasks :meth:`run_in_trio` starts.
    """

    name: ClassVar[str]
    loop: asyncio.AbstractEventLoop

    def __init__(self, nursery: trio.Nursery) -> None:
        self.nursery = nursery

    @abc.abstractmethod
    async def drive(self, main: Coroutine[Any, Any, T], grace: float = 5.0) -> T:
        """Run ``main`` on the loop to completion; then close the loop.

        When this task is cancelled, ``main`` (told to stop by its owner) gets ``grace``
        seconds to end by itself, is then cancelled in asyncio, and the loop is closed.
        """

    @abc.abstractmethod
    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` in trio soon, after the calls queued before it (from asyncio).

        Its errors are logged, not raised: one bad hand-over must not take the server down.
        ``fn`` may return False to say that it did its work at once and woke no trio task:
        the stepped bridge then steps on without giving trio rounds for such tasks to run
        (what a call returns is otherwise ignored)."""

    @abc.abstractmethod
    def to_asyncio(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` in the asyncio loop soon, in call order (from trio or asyncio);
        nothing once the loop is closed."""

    async def after_trio(self) -> None:
        """Return once trio has run the tasks that the calls to trio made so far woke (from
        asyncio): a writer that waits for it sends the messages those tasks post in the same
        write. The thread bridge, where both run at once, gives one loop iteration."""
        await asyncio.sleep(0)

    def posting(self) -> contextlib.AbstractContextManager[None]:
        """A scope, in trio, whose calls to asyncio run as it ends if this bridge can, rather
        than after trio's round: a table's request is written in the round that posted it.
        ``to_asyncio`` itself never runs its call at once (its callers may hold a lock the
        call takes), so the scope ends where nothing is held and nothing half done. Nothing
        inside it may await: another task's calls meanwhile would wait for the scope's end.
        The thread bridge, whose loop runs by itself, has nothing to do."""
        return _NO_SCOPE

    def call_in_trio(self, fn: Callable[..., T], *args: Any) -> asyncio.Future[T]:
        """Run a sync ``fn(*args)`` in trio; an asyncio future of its result (from asyncio)."""
        future: asyncio.Future[T] = self.loop.create_future()

        def run() -> None:
            try:
                value = fn(*args)
            except BaseException as exc:
                self._settle(future, None, exc)
            else:
                self._settle(future, value, None)

        self.to_trio(run)
        return future

    def run_in_trio(self, fn: Callable[..., Awaitable[T]], *args: Any) -> asyncio.Future[T]:
        """Start ``await fn(*args)`` as a task of :attr:`nursery`; an asyncio future of its
        outcome (cancelled when the task is)."""
        future: asyncio.Future[T] = self.loop.create_future()

        async def task() -> None:
            try:
                value = await fn(*args)
            except BaseException as exc:
                self._settle(future, None, exc)
                if isinstance(exc, trio.Cancelled | KeyboardInterrupt | SystemExit):
                    raise
            else:
                self._settle(future, value, None)

        self.to_trio(self.nursery.start_soon, task)
        return future

    def _settle(self, future: asyncio.Future[Any], value: Any, error: BaseException | None) -> None:
        def settle() -> None:
            if future.done():
                return
            if error is not None:
                if isinstance(error, trio.Cancelled):
                    future.cancel()
                else:
                    future.set_exception(error)
            else:
                future.set_result(value)

        self.to_asyncio(settle)


def _run_calls(calls: list[tuple[Callable[..., Any], tuple[Any, ...]]], where: str) -> bool:
    """Run queued calls in order; each one's errors are logged and the next runs (in trio, a
    raising ``run_sync_soon`` callback would crash the whole run: TRANSPORT.md, pitfall 2).
    Whether any of them may have woken a task: all but those that returned False
    (:meth:`Bridge.to_trio`).

    A few tracebacks per function every interval: a call that fails for every message a
    client sends must not write a traceback per message."""
    woke = False
    for fn, args in calls:
        try:
            if fn(*args) is not False:
                woke = True
        except Exception:
            woke = True
            name = getattr(fn, "__qualname__", type(fn).__name__)
            _call_errors.exception(f"{where} {name}", "error in a call from the %s side (%s)",
                                   where, name)
    return woke


def _cancel_and_close(loop: asyncio.AbstractEventLoop, iterate: Callable[[], None]) -> None:
    """Cancel the tasks still on ``loop``, give them a few iterations to unwind, close it."""
    try:
        for task in asyncio.all_tasks(loop):
            task.cancel()
        for _ in range(CLOSE_ITERATIONS):
            iterate()
    finally:
        loop.close()


# ------------------------------------------------------------------------------ stepped
class _NonBlockingSelector(selectors.DefaultSelector):
    """The loop's selector: polls, never blocks (trio does the waiting)."""

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        return super().select(0)


class SteppedBridge(Bridge):
    """grpc.aio's loop stepped by a trio task in trio's own thread (see the module's notes).

    The loop is a plain :class:`asyncio.SelectorEventLoop` whose selector never blocks: a
    step runs iterations (``_run_once``: due timers, I/O ready now, callbacks) until nothing
    is ready, each followed by the calls it made for trio; when asyncio has nothing ready the
    driver waits in trio until the loop's selector descriptor is readable or its next timer is
    due. A call from trio meanwhile writes one byte to the loop's self-pipe (as a thread's
    ``call_soon_threadsafe`` does), so that the driver wakes through the descriptor at the end
    of trio's round, with what every task of the round posted: no cancelled wait (cancelling
    one cost more than the rest of a wake-up). Calls between the two sides are plain function
    calls queued on one thread, in order: a call to trio runs right after the loop iteration
    that made it (it only wakes trio tasks; they run once the step is over). A trio task that
    posts inside :meth:`posting` runs its calls itself as the scope ends, with whatever else
    the loop has ready (:meth:`_run_ready`): no byte, and no step to wait for.

    At one table, a message read, the table's next request and its write took about five trio
    rounds (a round per loop iteration, and a cancelled wait per post); they take three now:
    ``bench/arena.py`` back to back, the server's CPU per decision 627 -> 450 us at one table
    and 215 -> 176 us at 16, one table's p50 round trip 0.64 -> 0.54 ms. With the posting
    scope, the request is written in the round that the answer's table runs in (asyncio
    iterations a decision 5.5 -> 3.7, docs/measurements.md).
    """

    name = "stepped"

    def __init__(self, nursery: trio.Nursery) -> None:
        super().__init__(nursery)
        self._selector = _NonBlockingSelector()
        self.loop = asyncio.SelectorEventLoop(self._selector)
        self._trio_calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._waiting = False
        """The driver waits for the selector's descriptor (to be woken through it)."""
        self._poked = False
        """A wake-up byte went to the loop's self-pipe since the driver last woke."""
        self._after_trio: list[asyncio.Future[None]] = []
        self._driving = False
        """:meth:`drive` runs: a posting scope may run the loop's ready callbacks at once."""
        self._main: asyncio.Future[Any] | None = None
        """What :meth:`drive` runs (its end wakes the driver)."""
        self._stepping = False
        """The loop's callbacks run now (a step, or :meth:`_run_ready`): a call to asyncio
        made meanwhile waits its turn in the loop."""
        self._posting = False
        """A trio task is in a :meth:`posting` scope: its calls to asyncio need no wake-up
        byte, the scope's end runs them."""

    @trio.lowlevel.enable_ki_protection
    async def drive(self, main: Coroutine[Any, Any, T], grace: float = 5.0) -> T:
        """See :meth:`Bridge.drive`.

        Protected from KeyboardInterrupt: a Ctrl-C raised in the middle of grpc.aio's own code
        (which ran in a thread of its own before, where signals never land) left it broken and
        crashed the process at exit; trio hands it to the main task instead, whose
        cancellation then stops the gRPC side in order.
        """
        task = self.loop.create_task(main)
        self._main = task
        self._driving = True
        try:
            await self._step_until(task)
        except trio.Cancelled:
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + grace
                await self._step_until(task)
            if not task.done():
                task.cancel()
                with trio.CancelScope(shield=True) as scope:
                    scope.deadline = trio.current_time() + 1.0
                    await self._step_until(task)
            raise
        finally:
            self._driving = False
            # Calls for trio made while closing are dropped: trio is done with this side.
            _cancel_and_close(self.loop, lambda: _one_iteration(self.loop))
        return task.result()

    async def _step_until(self, task: asyncio.Future[Any]) -> None:
        loop: Any = self.loop
        ready = loop._ready
        scheduled = loop._scheduled
        selector_fd = self._selector.fileno()
        checkpoint = trio.lowlevel.checkpoint
        while not task.done():
            woke_trio = self._step()
            if task.done():
                break
            if self._after_trio:
                # Two rounds: the tasks woken by this step's calls share the first round with
                # this one, in either order; by the second, every one of them has run.
                await checkpoint()
                await checkpoint()
                waiting, self._after_trio = self._after_trio, []
                for future in waiting:
                    if not future.done():
                        future.set_result(None)
                continue
            if ready:  # the step's cap was reached: let trio run, then go on
                await checkpoint()
                continue
            if woke_trio:
                # The tasks this step's calls woke (a table an answer reached) mostly post at
                # once: the driver stays awake for their round, so that what they post is
                # stepped without a wake-up byte through the self-pipe (a write, two reads
                # and a loop callback). The first round may run them before or after this
                # task; by the second every one has run.
                await checkpoint()
                if not ready:
                    await checkpoint()
                if ready:
                    continue
            if task.done() or self._after_trio:  # in a posting scope meanwhile (_run_ready)
                continue
            # Woken by the descriptor: I/O, a thread's call_soon_threadsafe, or a call from
            # trio, which writes to the loop's self-pipe while we wait (see to_asyncio). No cancel
            # scope unless a timer is due: cancelling a wait is most of a wake-up's cost.
            self._waiting = True
            try:
                if scheduled:
                    timeout = max(0.0, scheduled[0].when() - loop.time())
                    with trio.move_on_after(timeout):
                        await trio.lowlevel.wait_readable(selector_fd)
                else:
                    await trio.lowlevel.wait_readable(selector_fd)
            finally:
                self._waiting = False
                self._poked = False

    def _step(self) -> bool:
        """Loop iterations until nothing is ready (at most :data:`ITERATIONS_PER_STEP`), each
        followed by the calls it queued for trio (errors logged, not raised). True when any
        call to trio ran that may have woken a trio task (one that returned False did not:
        what it posted back to asyncio is stepped at once, without trio rounds between)."""
        loop: Any = self.loop
        ready = loop._ready
        woke = False
        self._stepping = True
        try:
            for _ in range(ITERATIONS_PER_STEP):
                _one_iteration(loop)
                if self._run_trio_calls():
                    woke = True
                if not ready:
                    break
        finally:
            self._stepping = False
        return woke

    def _run_trio_calls(self) -> bool:
        """The calls to trio queued so far, and those they queue in turn; whether any may
        have woken a trio task (:func:`_run_calls`)."""
        woke = False
        while self._trio_calls:
            calls, self._trio_calls = self._trio_calls, []
            if _run_calls(calls, "gRPC"):
                woke = True
        return woke

    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        """See :meth:`Bridge.to_trio`: here, right after the current loop iteration."""
        self._trio_calls.append((fn, args))

    def to_asyncio(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self.loop
        if loop.is_closed():
            return
        if self._waiting and not self._poked and not self._posting:
            # One byte to the self-pipe wakes the driver at the end of trio's round, once
            # every task of that round has posted what it had (a posting scope runs them
            # itself as it ends).
            self._poked = True
            loop.call_soon_threadsafe(fn, *args)
        else:
            loop.call_soon(fn, *args)

    def posting(self) -> contextlib.AbstractContextManager[None]:
        """See :meth:`Bridge.posting`: here the calls run in the calling trio task as the
        scope ends, unless the driver is stepping (a call to trio from a step: the step runs
        them next) or an outer scope will."""
        if not self._driving or self._stepping or self._posting:
            return _NO_SCOPE
        return _Posting(self)

    @trio.lowlevel.enable_ki_protection
    def _run_ready(self) -> None:
        """Run the loop's ready callbacks now, as a step would but without its poll for I/O
        (a system call) or trio rounds: at most :data:`READY_AT_ONCE`, with the calls to trio
        they make. What remains for the driver (callbacks past the cap, a writer's
        :meth:`after_trio`, a timer made earlier than the one it waits for, the end of what
        it drives) wakes it if it waits.

        Protected from KeyboardInterrupt, like :meth:`drive`: it runs grpc.aio's code."""
        loop: Any = self.loop
        ready = loop._ready
        scheduled = loop._scheduled
        due = scheduled[0].when() if scheduled else None
        self._stepping = True
        events._set_running_loop(loop)
        try:
            for _ in range(READY_AT_ONCE):
                if not ready:
                    break
                handle = ready.popleft()
                if not handle._cancelled:
                    handle._run()
                self._run_trio_calls()
        finally:
            events._set_running_loop(None)
            self._stepping = False
        if self._waiting and not self._poked and (
            ready or self._after_trio
            or (scheduled and (due is None or scheduled[0].when() < due))
            or (self._main is not None and self._main.done())
        ):
            self._poked = True
            loop._write_to_self()

    async def after_trio(self) -> None:
        """See :meth:`Bridge.after_trio`: here, once every trio task woken so far has run."""
        future = self.loop.create_future()
        self._after_trio.append(future)
        await future


class _Posting:
    """:meth:`SteppedBridge.posting`'s scope (a class: a generator's context manager cost
    more than the rest of a post)."""

    __slots__ = ("_bridge",)

    def __init__(self, bridge: SteppedBridge) -> None:
        self._bridge = bridge

    def __enter__(self) -> None:
        self._bridge._posting = True

    def __exit__(self, *exc_info: object) -> None:
        bridge = self._bridge
        bridge._posting = False
        if bridge.loop._ready:  # type: ignore[attr-defined]
            bridge._run_ready()


_NO_SCOPE: Final = contextlib.nullcontext()
"""The scope of a bridge that runs no calls at once (reusable: it holds nothing)."""


def _one_iteration(loop: asyncio.AbstractEventLoop) -> None:
    """One iteration of ``loop`` (not running), as the running loop meanwhile: what asyncio
    does inside ``run_forever``, by its private names."""
    stepped: Any = loop
    events._set_running_loop(loop)
    try:
        stepped._run_once()
    finally:
        events._set_running_loop(None)


def stepped_bridge_problem() -> str | None:
    """Why the stepped bridge cannot run on this Python and platform, or None when it can.

    Not a version check: the private names must be there, and one real loop stepped by them
    must behave as the stepped bridge relies on (a callback runs in a step, with the loop
    running; a timer shows in ``_scheduled``; a wake-up from another thread makes the
    selector's descriptor readable, which is what trio waits on).
    """
    for owner, name in ((asyncio.BaseEventLoop, "_run_once"), (events, "_set_running_loop")):
        if not callable(getattr(owner, name, None)):
            return f"{owner.__name__}.{name} is missing"
    selector = _NonBlockingSelector()
    try:
        loop = asyncio.SelectorEventLoop(selector)
    except Exception as exc:
        selector.close()
        return f"no selector event loop: {exc!r}"
    try:
        return _smoke_step(loop, selector)
    except Exception as exc:
        return f"a smoke step failed: {exc!r}"
    finally:
        loop.close()


def _smoke_step(loop: asyncio.AbstractEventLoop, selector: selectors.BaseSelector) -> str | None:
    ready = getattr(loop, "_ready", None)
    scheduled = getattr(loop, "_scheduled", None)
    if ready is None or scheduled is None:
        return "the loop has no _ready or _scheduled"
    try:  # epoll and kqueue have one; select and poll (Windows, some BSDs) do not
        selector_fd = selector.fileno()  # type: ignore[attr-defined]
    except Exception:
        return f"the selector ({type(selector).__name__}) has no file descriptor to wait on"
    seen: list[object] = []

    def callback() -> None:
        seen.append(asyncio.get_running_loop())

    loop.call_soon(callback)
    if not ready:
        return "call_soon did not fill _ready"
    timer = loop.call_later(3600, seen.append, "timer")
    if not scheduled or abs(scheduled[0].when() - timer.when()) > 1e-6:
        return "call_later did not show in _scheduled"
    _one_iteration(loop)
    if seen != [loop]:
        return "a step did not run the ready callback with the loop running"
    if ready:
        return "_ready was not emptied by a step"
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass
    else:
        return "the running loop was not reset after a step"
    timer.cancel()
    thread = threading.Thread(target=loop.call_soon_threadsafe, args=(seen.append, "thread"))
    thread.start()
    thread.join()
    readable, _, _ = select.select([selector_fd], [], [], 1.0)
    if not readable:
        return "a wake-up from another thread did not make the selector's descriptor readable"
    _one_iteration(loop)
    _one_iteration(loop)  # the self-pipe read, then its callback (whichever order it takes)
    if "thread" not in seen:
        return "a call from another thread did not run in a step"
    return None


# ------------------------------------------------------------------------------- thread
class _Calls:
    """Calls for another thread's loop, run there in order, one wake-up per burst: waking
    the other thread costs tens of microseconds, and a decision posts several messages."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        self._scheduled = False

    def add(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> bool:
        """Queue a call; True when the caller must schedule :meth:`take` on the other side."""
        with self._lock:
            self._calls.append((fn, args))
            if self._scheduled:
                return False
            self._scheduled = True
            return True

    def take(self) -> list[tuple[Callable[..., Any], tuple[Any, ...]]]:
        with self._lock:
            calls, self._calls = self._calls, []
            self._scheduled = False
            return calls


class ThreadBridge(Bridge):
    """grpc.aio's loop in a thread of its own; trio in its thread (public API only).

    asyncio -> trio: ``TrioToken.run_sync_soon`` (run KI-protected in trio); trio -> asyncio:
    ``loop.call_soon_threadsafe``. Each direction queues its calls and wakes the other thread
    once per burst. Signals land in the main thread only, so a Ctrl-C never interrupts
    grpc.aio's own code here either.
    """

    name = "thread"

    def __init__(self, nursery: trio.Nursery) -> None:
        super().__init__(nursery)
        self.loop = asyncio.SelectorEventLoop()
        self._token = trio.lowlevel.current_trio_token()
        self._for_trio = _Calls()
        self._for_asyncio = _Calls()
        self._thread_error: BaseException | None = None
        self._closing = False

    @trio.lowlevel.enable_ki_protection
    async def drive(self, main: Coroutine[Any, Any, T], grace: float = 5.0) -> T:
        """See :meth:`Bridge.drive`. Protected from KeyboardInterrupt, so that a Ctrl-C cannot
        leave the loop thread running: trio hands it to the main task instead."""
        loop = self.loop
        task = loop.create_task(main)  # the loop does not run yet: safe from this thread
        ended = trio.Event()  # main is done, or the loop thread is
        stopped = trio.Event()  # the loop thread is done and the loop closed
        task.add_done_callback(lambda _: self.to_trio(ended.set))

        def thread_done() -> None:
            ended.set()
            stopped.set()

        def deliver(_: object) -> None:  # in the loop thread, as it ends
            with contextlib.suppress(trio.RunFinishedError):  # trio is gone: nothing to tell
                self._token.run_sync_soon(thread_done)

        trio.lowlevel.start_thread_soon(self._run_loop, deliver, name="arena gRPC loop")
        try:
            try:
                await ended.wait()
            except trio.Cancelled:
                with trio.CancelScope(shield=True) as scope:
                    scope.deadline = trio.current_time() + grace
                    await ended.wait()
                if not task.done():
                    self.to_asyncio(task.cancel)
                    with trio.CancelScope(shield=True) as scope:
                        scope.deadline = trio.current_time() + 1.0
                        await ended.wait()
                raise
        finally:
            self.to_asyncio(loop.stop)
            with trio.CancelScope(shield=True) as scope:
                scope.deadline = trio.current_time() + THREAD_STOP_WAIT
                await stopped.wait()
            if not stopped.is_set():
                log.error("the gRPC loop thread did not stop within %g s: left behind",
                          THREAD_STOP_WAIT)
        if self._thread_error is not None:
            raise self._thread_error
        return task.result()

    def _run_loop(self) -> None:
        """The loop thread: run until told to stop, then cancel what is left and close."""
        loop = self.loop

        def iterate() -> None:  # one iteration, by public API: stop() before run_forever()
            loop.call_soon(loop.stop)
            loop.run_forever()

        try:
            loop.run_forever()
        except BaseException as exc:
            self._thread_error = exc
        finally:
            # As on the stepped bridge, calls for trio made while closing are dropped.
            self._closing = True
            try:
                _cancel_and_close(loop, iterate)
            except BaseException as exc:
                self._thread_error = self._thread_error or exc

    def to_trio(self, fn: Callable[..., Any], *args: Any) -> None:
        if self._closing:
            return
        if self._for_trio.add(fn, args):
            with contextlib.suppress(trio.RunFinishedError):  # trio is gone: nobody to call
                self._token.run_sync_soon(self._run_for_trio)

    def _run_for_trio(self) -> None:
        _run_calls(self._for_trio.take(), "gRPC")

    def to_asyncio(self, fn: Callable[..., Any], *args: Any) -> None:
        loop = self.loop
        if loop.is_closed():
            return
        if self._for_asyncio.add(fn, args):
            with contextlib.suppress(RuntimeError):  # the loop closed in between
                loop.call_soon_threadsafe(self._run_for_asyncio)

    def _run_for_asyncio(self) -> None:
        _run_calls(self._for_asyncio.take(), "trio")


# ------------------------------------------------------------------------------ choice
BRIDGES: Final[dict[str, type[Bridge]]] = {"stepped": SteppedBridge, "thread": ThreadBridge}
_probed: list[str | None] = []
_logged: set[tuple[str, str]] = set()


def _stepped_problem_once() -> str | None:
    if not _probed:
        _probed.append(stepped_bridge_problem())
    return _probed[0]


def choose_bridge(*, quiet: bool = False) -> type[Bridge]:
    """The bridge :func:`open_bridge` makes: ``TAROT_ARENA_BRIDGE`` if set, else the stepped
    one where it works, else the thread one. Says once in the log which, and why (at DEBUG
    when ``quiet``: a bot's user has no use for the line).

    Raises :class:`BridgeChoiceError` for a value that names no bridge, or that forces the
    stepped bridge where it cannot run."""
    wanted = os.environ.get(ENV_VAR, "").strip().lower() or "auto"
    if wanted not in CHOICES:
        raise BridgeChoiceError(
            f"{ENV_VAR}={os.environ[ENV_VAR]!r} names no bridge: expected "
            f"{', '.join(CHOICES[:-1])} or {CHOICES[-1]}"
        )
    if wanted == "thread":
        _log_once(logging.INFO, "thread", f"the thread bridge, as {ENV_VAR} asks", quiet)
        return ThreadBridge
    problem = _stepped_problem_once()
    if wanted == "stepped":
        if problem is not None:
            raise BridgeChoiceError(
                f"{ENV_VAR}=stepped, but the stepped bridge cannot run on this Python "
                f"({problem}): unset it, or set it to thread or auto"
            )
        _log_once(logging.INFO, "stepped", f"the stepped bridge, as {ENV_VAR} asks", quiet)
        return SteppedBridge
    if problem is not None:
        _log_once(logging.WARNING, "thread",
                  f"the thread bridge (slower): the stepped one cannot run on this Python "
                  f"({problem})", quiet)
        return ThreadBridge
    _log_once(logging.INFO, "stepped",
              "the stepped bridge (asyncio's private names it needs are present and work)",
              quiet)
    return SteppedBridge


def _log_once(level: int, name: str, why: str, quiet: bool = False) -> None:
    if quiet:
        log.debug("gRPC <-> trio: %s", why)
    elif (name, why) not in _logged:
        _logged.add((name, why))
        log.log(level, "gRPC <-> trio: %s", why)


def open_bridge(nursery: trio.Nursery, *, quiet: bool = False) -> Bridge:
    """The bridge :func:`choose_bridge` picks, on ``nursery`` (see :class:`Bridge`)."""
    return choose_bridge(quiet=quiet)(nursery)


def reset_choice() -> None:
    """Forget the probe's result and what was logged (for tests that change asyncio)."""
    _probed.clear()
    _logged.clear()

