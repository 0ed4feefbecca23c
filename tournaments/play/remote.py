"""The gRPC arena as the tournament runner sees it: bots are programs connected to a serving
:class:`~arena.transport.server.ArenaServer`."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from arena.table import TableOutcome
from arena.transport.connections import BotNotConnectedError
from arena.transport.server import ArenaServer

from .arena import BotAwayError, TableToPlay

SEAT_WAIT = 10.0
"""How long a claimed table waits for a bot that left between the claim and the seating."""


class RemoteArena:
    """An :class:`~tournaments.play.arena.Arena` over a serving ``server`` (which several
    runners may share: ``serve`` plays every tournament on one server)."""

    def __init__(self, server: ArenaServer, seat_wait: float = SEAT_WAIT) -> None:
        self.server = server
        self.seat_wait = seat_wait

    def connected_bots(self) -> Collection[str]:
        return self.server.connected_bots().keys()

    def awaiting(self, bot_ids: Sequence[str], game: str) -> list[str]:
        return self.server.awaiting(bot_ids, game)

    async def wait_change(self) -> None:
        await self.server.wait_change()

    async def play(self, table: TableToPlay) -> TableOutcome:
        try:
            return await self.server.play_table(
                table.table_id, table.state, table.bots, table.time_control,
                seat_timeout=self.seat_wait, reveal=table.reveal,
            )
        except BotNotConnectedError as exc:
            raise BotAwayError(str(exc)) from exc
