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
from arena.table.messages import DecisionRequest, Notice, TableEnd

from ._view import TableView

Action = Any
"""An action of the table's game (``table.game``), or its text notation (``"play T21"``)."""


class Bot:
    """Subclass and write :meth:`decide` (or the methods of the decisions you care about).

    Every game is played the same way: a request's ``kind`` is one of its game's decisions
    (``table.game.declaration.decisions``: French Tarot's ``bid``, ``call``, ``discard``,
    ``chelem``, ``play`` and ``poignee``, Tre e Venticinque's ``discard`` and ``play``), and the
    method of that name answers it if the bot defines one (French Tarot's ``poignee`` decision
    is :meth:`hide`), else :meth:`decide`. A game from outside the arena's package needs no
    change here: define a method named after its decision, or :meth:`decide`."""

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
        """French Tarot: pass or bid a contract."""
        return self.decide(table, request)

    def call(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Five players: call a card (the taker only)."""
        return self.decide(table, request)

    def discard(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Lay one card of the discard, asked once per card (French Tarot: the taker; Tre e
        Venticinque: the dealer, three times)."""
        return self.decide(table, request)

    def chelem(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """French Tarot: announce a chelem or not (the taker only)."""
        return self.decide(table, request)

    def play(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """Play a card (French Tarot: before one's first card the legal list may also offer
        poignees)."""
        return self.decide(table, request)

    def hide(self, table: TableView, request: DecisionRequest) -> Action | Any:
        """French Tarot, after declaring a poignee with more trumps than it shows: keep one
        trump hidden (asked once per extra trump; the others are shown)."""
        return self.decide(table, request)

    # ------------------------------------------------------------------------------ hooks
    def on_table_start(self, table: TableView) -> Any:
        """A new table, or a table resumed after a reconnection (``table.resumed``)."""

    def on_event(self, table: TableView, event: Any) -> Any:
        """A public event of the table's game (its kinds: ``table.game.declaration.events``
        and docs/protocol-games.md); ``table`` already includes it."""

    def on_notice(self, table: TableView | None, notice: Notice) -> Any:
        """The arena rejected or replaced an answer (``table`` is None if it is unknown)."""

    def on_table_end(self, table: TableView, end: TableEnd) -> Any:
        """The deal is over: ``end.result`` has the scores, ``end.cards`` every hand (None in a
        competition, whose boards are still being played at other tables); ``table`` already
        includes them (``table.result``; French Tarot also ``table.deal``)."""

    # --------------------------------------------------------------------------- internal
    def method_for(self, request: DecisionRequest) -> Any:
        """The bound method that answers ``request``: the decision's method if the bot defines
        it (the SDK's own are only defaults), else :meth:`decide` itself (so that an async
        ``decide`` is seen as async)."""
        return getattr(self, self._method_name(request.kind))

    def _method_name(self, kind: str) -> str:
        """The name of the method that answers decisions of ``kind`` (by the bot's class: the
        client asks once per kind, unless :meth:`method_for` is the bot's own)."""
        name = _METHOD_BY_KIND.get(kind, kind)
        own = getattr(type(self), name, None) if name.isidentifier() else None
        if not callable(own) or own is getattr(Bot, name, None) or name.startswith("_") or (
                name in _NOT_DECISIONS):
            name = "decide"
        return name

    @property
    def display_name(self) -> str:
        return self.name or type(self).__name__


_METHOD_BY_KIND = {"poignee": "hide"}
"""The decisions answered by a method of another name (the SDK's first names, kept)."""
_NOT_DECISIONS = frozenset(
    {"decide", "method_for", "display_name", "on_table_start", "on_event", "on_notice",
     "on_table_end"}
)


def as_action(result: object, game: Game | None = None) -> Any:
    """What a decision method returned, as an action of ``game`` (the table's; the default
    game, that of protocol version 1, if None): an action, or its text notation
    (``"play T21"``); anything else is a bot bug, reported as such."""
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
