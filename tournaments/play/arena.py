"""What the tournament runner asks of an arena: play one table, and say which bots it can seat.

The runner (:mod:`.runner`) knows nothing else of who plays: claims, leases, resumption and the
store are its own, the bots are the arena's. Two arenas implement :class:`Arena`:

- the gRPC arena, :class:`tournaments.play.remote.RemoteArena` over
  :class:`arena.transport.server.ArenaServer`: bots are programs connected over the network, a
  table waits for its bots to be connected with a table free;
- the in-process arena, :class:`clients.local.LocalArena`: SDK bot objects of this process, always
  there (``tarot-arena try``, ``compare --local``). It lives on the clients side because it
  depends on the bot SDK, which this package must not.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from arena.games.base import State
from arena.table import TableOutcome, TimeControl


@dataclass(frozen=True, slots=True)
class TableToPlay:
    """One table as the runner hands it to an arena."""

    table_id: str
    board: int
    """The board it deals (tables of one board deal the same cards)."""
    state: State
    """The deal, not yet started: the game's initial state for the board's seed."""
    bots: tuple[str, ...]
    """Bot id by seat."""
    time_control: TimeControl
    reveal: bool = True
    """Whether each seat's TableEnd shows the whole deal (a competition holds it back)."""


class BotAwayError(LookupError):
    """A bot of the table could not be seated after all (it left, or took its last free table
    elsewhere, after the table was claimed): the runner gives the table back, unplayed."""


class Arena(Protocol):
    """Plays tables for the runner."""

    def connected_bots(self) -> Collection[str]:
        """The bots this arena could seat at all (connected, busy or not)."""
        ...

    def awaiting(self, bot_ids: Sequence[str], game: str) -> list[str]:
        """The bots of a table of ``game`` (its registered name) that cannot be seated now (not
        there for that game, or without a table free), each once, in seat order; empty when the
        table can be played."""
        ...

    async def wait_change(self) -> None:
        """Until what :meth:`awaiting` answers may have changed (a bot came or left, a table
        ended)."""
        ...

    async def play(self, table: TableToPlay) -> TableOutcome:
        """Seat the table's bots and play its deal; :class:`BotAwayError` when a bot cannot be
        seated."""
        ...
