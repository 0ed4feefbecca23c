"""The bot SDK as workers use it (:mod:`tournaments.work`): the one place it is imported for
them, as the rest of ``tournaments`` imports the SDK only from the command line, lazily. A
:class:`SdkBots` is handed to every worker (it crosses a process spawn: it holds nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..play.arena import Arena
from ..play.imposed import ImposedAuctions, SeatFactory
from ..work.worker import BotLoadError


class SdkBots:
    """Loads bots by spec and plays them on the in-process arena (:mod:`clients.local`)."""

    def load(self, spec: str) -> Any:
        """The bot ``spec`` names, or a :class:`BotLoadError` saying why not."""
        from clients.run import UsageError, load_bot

        try:
            return load_bot(spec, {})
        except UsageError as exc:
            raise BotLoadError(str(exc)) from exc

    def resolve(self, spec: str) -> tuple[str, dict[str, Any]]:
        """A bundled bot's name as its ``module:Class`` and arguments; a spec as it is."""
        from clients.run import resolve_bot

        return resolve_bot(spec, {})

    def arena(self, bots: Mapping[str, Any], imposed: ImposedAuctions | None) -> Arena:
        from clients.local import LocalArena

        return LocalArena(bots, strict=False, imposed=imposed)

    def auction_seat(self, bidder: Any) -> SeatFactory:
        from clients.local import auction_seat

        return auction_seat(bidder)
