"""Request ids are never reused, not even by a later arena process replaying the same table:
a bot that kept an answer for (table, request id) could otherwise send it to the new attempt
(a false ILLEGAL_ACTION after a crash and restart)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

from arena.table.runner import next_request_id

ROOT = Path(__file__).resolve().parents[2]
PLAY_ONE_TABLE = """
import trio
from arena.games.french_tarot import GameState, TableOptions, seeded_deal
from arena.table import DecisionRequest, TableRunner
from tests.table.fakes import FakeSeat, players_of

async def main():
    seats = [FakeSeat() for _ in range(3)]
    await TableRunner("replayed", GameState(seeded_deal(4, 3, 0), TableOptions(3)), seats,
                      players_of(3)).run()
    print(" ".join(str(r.request_id) for s in seats for r in s.of(DecisionRequest)))

trio.run(main)
"""


def request_ids_of_a_process() -> list[int]:
    done = subprocess.run([sys.executable, "-c", PLAY_ONE_TABLE], cwd=ROOT, check=True,
                          capture_output=True, text=True, timeout=60)
    return [int(word) for word in done.stdout.split()]


def test_a_table_replayed_by_a_new_process_gets_request_ids_never_seen_before() -> None:
    first = request_ids_of_a_process()
    second = request_ids_of_a_process()  # the arena restarted and plays the table again
    assert len(first) == len(second) >= 3
    assert max(first) < min(second)
    assert max(second) < 2**53  # exact as a JavaScript number


def test_request_ids_grow_even_when_asked_faster_than_the_clock_ticks() -> None:
    ids = [next_request_id() for _ in range(10_000)]
    assert all(a < b for a, b in itertools.pairwise(ids))
