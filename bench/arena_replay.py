"""The arena's own work per decision, without the transport: for counts of instructions that
other work on this machine cannot move.

``make bench-arena`` times the arena over real gRPC, where this 2-core machine's drift (its
speed changes by a third from one minute to the next) hides any change of a few percent. This
plays the same tables as its 16-table level in one process, with no gRPC and no bridge: the
arena's :class:`~arena.transport.server.ArenaServer` seats the bench's four bots on connections
whose outboxes a fake bot reads as the gRPC writer would (batched as the writer batches them,
then parsed by protobuf, as the real bots do) and answers through
``BotConnection.on_decision``, as the gRPC reader does (the first legal action, a Petite for the
first bidder: ``bench.arena_bot.answers``). What is counted is the arena's work for a decision
(the table runner, the engine, the events and the request encoded, the answer decoded and
checked, the connection's bookkeeping, trio's scheduling) plus the fake bots' parse and answer,
which are the same before and after a change of the arena.

    python -m bench.arena_replay [--tables 16] [--deals 64] [--repeat N]

It prints the decisions and the CPU time per decision. For instructions, run it under callgrind
twice and take the difference, which leaves out the imports, the first run's warm-up and the
interpreter's start and exit::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python -m bench.arena_replay --repeat 1
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python -m bench.arena_replay --repeat 2

(the totals are on the last lines, "Collected"): (second - first) / decisions of one repeat.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

PLAYERS = 4
BOTS = 4
SEED = 7000


def replay(tables: int, deals: int, seed: int = SEED) -> dict[str, Any]:
    """Play ``deals`` deals, ``tables`` at once, on a fresh arena; its figures."""
    import trio

    from arena.games.french_tarot import GameState, TableOptions, seeded_deal
    from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
    from arena.storage.bots import BotRegistry
    from arena.storage.db import make_engine
    from arena.table import TimeControl
    from arena.transport import convert, wire
    from arena.transport.connections import BotConnection, Outbox
    from arena.transport.server import ArenaServer
    from arena.transport.services import MAX_BATCH
    from bench.arena_bot import answers

    registry = BotRegistry(make_engine("sqlite://"))
    bot_ids = [registry.register(f"replay{i}")[0].id for i in range(BOTS)]
    options = TableOptions(PLAYERS)
    decisions = 0
    counts: dict[str, float] = {"messages": 0, "requests": 0, "think_seconds": 0.0}

    async def main() -> None:
        nonlocal decisions
        server = ArenaServer(registry)
        async with trio.open_nursery() as nursery:
            for bot_id in bot_ids:
                wake, woken = trio.open_memory_channel[None](math.inf)
                outbox = Outbox(functools.partial(wake.send_nowait, None))
                hello = convert.Hello("", bot_id, "1", convert.PROTOCOL_VERSION, tables, True,
                                      ())
                connection = server.open_stream(bot_id, hello, outbox)
                assert connection is not None
                nursery.start_soon(fake_bot, connection, outbox, woken)

            numbers = iter(range(deals))

            async def worker() -> None:
                nonlocal decisions
                for number in numbers:  # shared: each worker takes the next deal
                    outcome = await server.play_table(
                        f"R{number}",
                        GameState(seeded_deal(seed + number, PLAYERS, number % PLAYERS),
                                  options),
                        bot_ids, TimeControl(60.0),
                    )
                    assert not outcome.infractions, outcome.infractions
                    decisions += len(outcome.decisions)

            async with trio.open_nursery() as workers:
                for _ in range(tables):
                    workers.start_soon(worker)
            nursery.cancel_scope.cancel()

    async def fake_bot(connection: BotConnection, outbox: Outbox,
                       woken: trio.MemoryReceiveChannel[None]) -> None:
        """What the gRPC writer takes, read as the bench's bots read it; answered as the gRPC
        reader hands answers over (one trio round later, as a step of the bridge would)."""
        async for _ in woken:
            decisions_now = []
            for item in wire.batches(outbox.take(), MAX_BATCH):  # as the gRPC writer does
                decisions_now += answers(pb.ArenaMessage.FromString(item), counts, hold=False)
            await trio.lowlevel.checkpoint()
            for answer in decisions_now:
                connection.on_decision(convert.decision_from_pb(answer))

    cpu, began = time.process_time(), time.perf_counter()
    trio.run(main)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - began
    return {"tables": tables, "deals": deals, "decisions": decisions,
            "messages_to_bots": int(counts["messages"]), "seconds": round(wall, 3),
            "cpu_us_per_decision": round(cpu / max(1, decisions) * 1e6, 1)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16, help="tables at once (default 16)")
    parser.add_argument("--deals", type=int, default=64, help="deals a repeat (default 64)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="plays of the same deals, each on a fresh arena (default 1)")
    args = parser.parse_args(argv)
    for _ in range(args.repeat):
        figures = replay(args.tables, args.deals)
        print(f"{figures['decisions']} decisions, {figures['tables']} tables at once: "
              f"{figures['cpu_us_per_decision']} us of CPU a decision", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
