"""The one class a bot author subclasses.

A bot is a policy, not a network program: it gets a :class:`~clients.sdk.TableView` and a
:class:`~arena.table.DecisionRequest` and returns one of ``request.legal_actions``. Everything
else (streams, tables in parallel, reconnection, matching answers to requests) is the client's
job, so that the same bot can also be driven by tests or an offline simulator.

Every method may be a plain function or a coroutine function (trio). Plain decision methods run
in a worker thread by default, so that a slow decision at one table never stalls the messages of
the others; set ``threaded = False`` for bots so fast that a thread costs more than it saves.
Hooks (``on_*``) run in the receive loop, in message order: keep them quick.
"""

from __future__ import annotations

from typing import Any, ClassVar

from arena import games
from arena.games import Game
from arena.games.french_tarot import Action
from arena.table.messages import DecisionRequest, Notice, TableEnd

from ._view import TableView


class Bot:
    """Subclass and write :meth:`decide` (or the per-phase methods you care about)."""

    name: ClassVar[str] = ""
    """Shown in standings; defaults to the class name."""
    version: ClassVar[str] = "0"
    """Free text sent in the Hello, e.g. a release number or a git hash."""
    threaded: ClassVar[bool] = True
    """Run plain (non-async) decision methods in a worker thread."""
    games: ClassVar[tuple[str, ...]] = ("french-tarot",)
    """The games this bot plays (``arena.games.names()``), told to the arena in the Hello: it
    seats the bot at tables of these games only."""

    # -------------------------------------------------------------------------- decisions
    def decide(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Return one of ``request.legal_actions`` (an action, or its text notation such as
        ``"play T21"``). Called by the per-phase methods unless they are overridden.

        An exception is logged and the request is left unanswered: the arena then plays its
        documented fallback when the time runs out, and records a timeout.
        """
        raise NotImplementedError(f"{type(self).__name__} must define decide() or the "
                                  f"method for {request.kind} decisions")

    def bid(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Pass or bid a contract."""
        return self.decide(table, request)

    def call(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Five players: call a card (the taker only)."""
        return self.decide(table, request)

    def discard(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Lay one card of the discard (asked once per card, the taker only)."""
        return self.decide(table, request)

    def chelem(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Announce a chelem or not (the taker only)."""
        return self.decide(table, request)

    def play(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Play a card; before one's first card the legal list may also offer poignees."""
        return self.decide(table, request)

    def hide(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """After declaring a poignee with more trumps than it shows: keep one trump hidden
        (asked once per extra trump; the others are shown)."""
        return self.decide(table, request)

    # ------------------------------------------------------------------------------ hooks
    def on_table_start(self, table: TableView) -> Any:
        """A new table, or a table resumed after a reconnection (``table.resumed``)."""

    def on_event(self, table: TableView, event: Any) -> Any:
        """A public event of the table's game (French Tarot's are in
        :mod:`arena.games.french_tarot.events`); ``table`` already includes it."""

    def on_notice(self, table: TableView | None, notice: Notice) -> Any:
        """The arena rejected or replaced an answer (``table`` is None if it is unknown)."""

    def on_table_end(self, table: TableView, end: TableEnd) -> Any:
        """The deal is over: ``end.result`` has the scores, ``end.cards`` every hand (None in a
        competition, whose boards are still being played at other tables); ``table`` already
        includes them (French Tarot: ``table.result``, ``table.deal``)."""

    # --------------------------------------------------------------------------- internal
    def method_for(self, request: DecisionRequest) -> Any:
        """The bound method that answers ``request``: the phase's method if the bot overrides
        it, else :meth:`decide` itself (so that an async ``decide`` is seen as async)."""
        name = _METHOD_BY_KIND.get(request.kind, "decide")
        if getattr(type(self), name) is getattr(Bot, name):
            name = "decide"
        return getattr(self, name)

    @property
    def display_name(self) -> str:
        return self.name or type(self).__name__


_METHOD_BY_KIND = {
    "bid": "bid",
    "call": "call",
    "discard": "discard",
    "chelem": "chelem",
    "play": "play",
    "poignee": "hide",
}


def as_action(result: object, game: Game | None = None) -> Any:
    """What a decision method returned, as an action of ``game`` (French Tarot if None): an
    action, or its text notation (``"play T21"``); anything else is a bot bug, reported as
    such."""
    game = game or games.game()
    if isinstance(result, str):
        return game.parse_action(result)
    try:
        game.action_to_wire(result)
    except (TypeError, ValueError, AttributeError):
        raise TypeError(
            f"a decision must return an action of {game.title} or its notation, got {result!r}"
        ) from None
    return result
