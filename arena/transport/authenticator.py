"""What the arena's gRPC services need of the bot registry, and nothing more.

The transport checks a bot's token, records the version its Hello names, and lets the admin
service register, list and revoke bots; where those bots live (a database, a dict in a test)
is not its business. The storage side's :class:`arena.storage.bots.BotRegistry` implements
this interface; whoever builds the server (the command line, a tournament, a test) hands it
over, so that the transport never imports storage.

Every method may block (a database round trip): the services call them in executor threads,
never on the asyncio or trio loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable


class RegisteredBot(Protocol):
    """A bot as the registry knows it: what the admin service's ListBots shows."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str:
        """The name it was registered under (its Hello may name itself differently)."""
        ...

    @property
    def owner(self) -> str: ...

    @property
    def revoked(self) -> bool: ...

    @property
    def created_at(self) -> str:
        """ISO 8601, UTC."""
        ...


@runtime_checkable
class Authenticator(Protocol):
    def authenticate(self, token: str) -> RegisteredBot | None:
        """The bot ``token`` belongs to; None for a token unknown, revoked or malformed (the
        bot is told only that, never which)."""
        ...

    def record_hello(self, bot_id: str, name: str, version: str) -> None:
        """Keep the name and version an accepted Hello of the bot sent (checked already:
        printable, at most 100 characters each). A failure costs the bot nothing: the
        services log it and the connection stands."""
        ...

    def register(self, name: str, owner: str = "") -> tuple[RegisteredBot, str]:
        """A new bot and its token, the only time the token exists in clear; ValueError with
        the reason for a name or owner refused."""
        ...

    def list(self) -> Sequence[RegisteredBot]:
        """Every bot, revoked ones included, oldest first."""
        ...

    def revoke(self, bot_id: str) -> bool:
        """Revoke the bot's token; False when it was already revoked, LookupError for an
        unknown id."""
        ...
