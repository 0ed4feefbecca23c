"""A worker told to stop by a signal gives back what it holds, whatever signals come next."""

from __future__ import annotations

import os
import signal

import pytest
import trio

from tournaments.play.stopping import until_told_to_stop


@pytest.mark.parametrize("first", [signal.SIGINT, signal.SIGTERM])
def test_the_first_signal_cancels_and_the_next_ones_cannot_interrupt_the_cleanup(
        first: signal.Signals) -> None:
    steps: list[str] = []

    async def run() -> None:
        try:
            os.kill(os.getpid(), first)
            await trio.sleep_forever()
        finally:
            with trio.CancelScope(shield=True):
                steps.append("giving back")
                os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C again, or the parent's forward
                os.kill(os.getpid(), signal.SIGTERM)
                await trio.sleep(0.05)
                steps.append("given back")

    with pytest.raises(KeyboardInterrupt):
        trio.run(until_told_to_stop, run)
    assert steps == ["giving back", "given back"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # as it was


def test_a_run_that_ends_by_itself_returns_its_result() -> None:
    async def run() -> int:
        await trio.sleep(0)
        return 7

    assert trio.run(until_told_to_stop, run) == 7
