"""What the gRPC servicers (:mod:`.services`) need of the arena that hosts them: a Protocol,
so that the servicers depend on this and not on :class:`~.server.ArenaServer` itself (which
builds them), and the modules' dependencies stay one way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from arena.games import State
from arena.table import TableOutcome, TimeControl

from . import convert
from .authenticator import Authenticator
from .bridge import Bridge
from .connections import BotConnection, Outbox


class Limiter(Protocol):
    """The handshake limiter (:class:`~.services.HandshakeLimiter` is one)."""

    burst: float
    rate: float

    def allow(self, peer: str, now: float) -> bool: ...


class ArenaHost(Protocol):
    """The arena as its servicers see it (:class:`~.server.ArenaServer` is one)."""

    registry: Authenticator
    admin_token: str
    bridge: Bridge | None
    handshakes: Limiter
    hello_timeout: float
    max_message_bytes: int
    outbox_limit_bytes: int

    def connected_bots(self) -> dict[str, int]: ...

    def connection_summaries(self) -> list[convert.ConnectionSummary]: ...

    def mark_revoked(self, bot_id: str) -> None: ...

    def open_stream(
        self, bot_id: str, hello: convert.Hello, outbox: Outbox
    ) -> BotConnection | None: ...

    def stream_ended(self, outbox: Outbox) -> None: ...

    async def play_table(
        self,
        table_id: str,
        state: State,
        bot_ids: Sequence[str],
        time_control: TimeControl | None = None,
        seat_timeout: float = 30.0,
        reveal: bool = True,
    ) -> TableOutcome: ...
