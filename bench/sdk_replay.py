"""The SDK's receive path without the transport: a recorded stream replayed, for instruction
counts that other work on the machine cannot move.

``bench/arena.py --bot-impl sdk --record-bots PREFIX`` writes every stream message each SDK bot
received (``PREFIX-bot0.rec``, ...). This replays one recording's messages of one level (the
tables ``L16-*`` by default: the 16-table level) through :class:`clients.sdk.ArenaClient`'s
receive path, as its receiving task runs it for each stream message (read, fold the views,
decide, encode the answers), with the bench's own bot (the first legal action, a Petite for the
first bidder), the answers kept in a list instead of sent. The messages are parsed before (grpc
does that in the transport), and each repeat starts from a fresh client.

    python -m bench.sdk_replay FILE [--tables 16] [--repeat N]

It prints the decisions and the CPU time per decision. For instructions, run it under
callgrind twice and take the difference, which leaves out the imports, the first replay's
warm-up and the interpreter's start and exit::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python -m bench.sdk_replay FILE --repeat 1
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python -m bench.sdk_replay FILE --repeat 3

(the totals are on the last lines, "Collected"): (second - first) / (2 x decisions).
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb

_LENGTH = struct.Struct("<I")


def first_legal_sdk_bot(counts: dict[str, float] | None = None) -> Any:
    """The SDK bench bot (:func:`bench.arena_bot.play_sdk`, and these replays): the first
    legal action, but a Petite for the first bidder offered one (first legal actions alone pass
    every deal out); ``counts["requests"]`` counts its decisions."""
    from arena.games.french_tarot import Bid, Contract, Phase
    from clients.sdk import Bot, DecisionRequest, TableView

    class FirstLegal(Bot):
        name = "bench-first-legal-sdk"
        version = "1"
        threaded = False

        def decide(self, table: TableView, request: DecisionRequest) -> object:
            if counts is not None:
                counts["requests"] += 1
            legal = request.legal_actions
            if request.phase is Phase.BIDDING:
                for action in legal:
                    if isinstance(action, Bid) and action.contract is Contract.PETITE:
                        return action
            return legal[0]

    return FirstLegal()


def write_recording(path: Path, messages: Sequence[bytes]) -> None:
    """Each message as its length (4 bytes, little-endian) and its bytes."""
    with path.open("wb") as out:
        for message in messages:
            out.write(_LENGTH.pack(len(message)))
            out.write(message)


def read_recording(path: Path) -> list[bytes]:
    data = path.read_bytes()
    messages, at = [], 0
    while at < len(data):
        (size,) = _LENGTH.unpack_from(data, at)
        at += _LENGTH.size
        messages.append(data[at:at + size])
        at += size
    return messages


def _table_ids(message: pb.ArenaMessage) -> set[str]:
    parts = message.batch.messages if message.WhichOneof("kind") == "batch" else (message,)
    ids = set()
    for part in parts:
        kind = part.WhichOneof("kind")
        inner = getattr(part, kind) if kind else None
        table_id = getattr(inner, "table_id", "")
        if table_id:
            ids.add(table_id)
    return ids


def level_messages(recorded: Sequence[bytes], tables: int) -> list[pb.ArenaMessage]:
    """The stream messages of the level of ``tables`` tables (table ids ``L<tables>-*``), and
    the Welcome: from the first message of one of its tables to the last."""
    parsed = [pb.ArenaMessage.FromString(message) for message in recorded]
    prefix = f"L{tables}-"
    of_level = [i for i, m in enumerate(parsed)
                if any(t.startswith(prefix) for t in _table_ids(m))]
    if not of_level:
        raise SystemExit(f"no message of a table {prefix}* in the recording")
    welcome = [m for m in parsed[:of_level[0]] if m.WhichOneof("kind") == "welcome"][-1:]
    return welcome + parsed[of_level[0]:of_level[-1] + 1]


class _Stream:
    """What the receive path sees of a stream: an id, ``send``, whether to batch."""

    def __init__(self) -> None:
        self.id = 1
        self.sent: list[pb.BotMessage] = []
        self.batch_decisions = True

    def send(self, message: pb.BotMessage) -> None:
        self.sent.append(message)


def replay(messages: Sequence[pb.ArenaMessage], repeat: int) -> tuple[int, float]:
    """(decisions, CPU seconds) of ``repeat`` replays of ``messages``."""
    import trio

    from clients.sdk import ArenaClient

    decisions = 0
    cpu = 0.0

    async def main() -> None:
        nonlocal decisions, cpu
        for _ in range(repeat):
            client = ArenaClient(first_legal_sdk_bot(), "127.0.0.1:1", "tka_replay")
            stream: Any = _Stream()
            async with trio.open_nursery() as nursery:
                client._nursery = nursery
                status: Any = trio.TASK_STATUS_IGNORED
                began = time.process_time()
                for message in messages:  # as ArenaClient._receive, a message at a time
                    await client._read(stream, message, status)
                    if client._queued:
                        client._decide_queued()
                cpu += time.process_time() - began
            decisions += sum(
                len(m.decisions.decisions) if m.WhichOneof("kind") == "decisions" else 1
                for m in stream.sent)

    trio.run(main)
    return decisions, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording", type=Path)
    parser.add_argument("--tables", type=int, default=16,
                        help="the level to replay (its tables are L<tables>-*; default 16)")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    messages = level_messages(read_recording(args.recording), args.tables)
    decisions, cpu = replay(messages, args.repeat)
    per = decisions // max(1, args.repeat)
    print(f"{len(messages)} stream messages, {per} decisions a replay, {args.repeat} replays: "
          f"{cpu / max(1, decisions) * 1e6:.1f} us CPU a decision")


if __name__ == "__main__":
    main()
