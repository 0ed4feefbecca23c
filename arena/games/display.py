"""How a game is shown to people: its score unit, its cards' faces, its actions in words, how a
deal's record steps into tricks with their winners, and how its score was made.

A game offers this as its ``display`` attribute (a :class:`Display`); the web page and the CLI
ask it, and know no game. A game without one still gets :class:`GenericDisplay`: its cards and
actions in its own notation, its scores in plain points, and no table to step through (the
surfaces then list the decisions). :func:`walk` steps a record through the game's own rules,
the only source of truth about hands and tricks, so every surface shows what the rules made of
each action.

Like the games, this module is pure: no I/O, no trio, grpc, protobuf or database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .base import POINTS as POINTS
from .base import AnyGame, Card, Record, State
from .base import ScoreUnit as ScoreUnit


# ---------------------------------------------------------------------------- what shows
@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as a page shows it: short text (with its suit symbol), the words for screen
    readers, and a class for its colour (``hearts``, ``trump``; empty for none)."""

    text: str
    label: str
    css: str = ""


@dataclass(frozen=True, slots=True)
class TrickView:
    """A finished trick: its cards by seat in play order and who won it."""

    number: int
    """1, 2, 3... in the order played."""
    leader: int
    cards: tuple[tuple[int, Card], ...]
    """(seat, card) in play order."""
    winner: int
    note: str = ""
    """What else happened with it, in words (Tre e Venticinque's Matto exchange)."""


@dataclass(frozen=True, slots=True)
class TableView:
    """A deal at one moment, as a replay draws it."""

    hands: tuple[tuple[Card, ...], ...]
    """Every hand at the table, ascending (the dummy's too, at French Tarot for two)."""
    trick: tuple[tuple[int, Card], ...]
    """The trick being played: (seat, card) in play order; empty between tricks."""
    tricks: tuple[TrickView, ...]
    """The tricks finished, in order."""


@dataclass(frozen=True, slots=True)
class FactLine:
    """One line of a fact: words, the cards they speak of, and the seat they are about (the
    surfaces write its player's name before the words)."""

    text: str = ""
    cards: tuple[Card, ...] = ()
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class Fact:
    """Something of a finished deal a replay states beside the table: French Tarot's
    bidding, contract, chien and poignées; Tre e Venticinque's discard."""

    title: str
    lines: tuple[FactLine, ...]


# ---------------------------------------------------------------------------- protocols
@runtime_checkable
class ShowsForms(Protocol):
    def form(self, options: Any) -> str:
        """A table of these options in a few words, for lists: ``2 players with the dummy``,
        ``4 players, beginner variant``."""
        ...


@runtime_checkable
class ShowsCards(Protocol):
    def card_face(self, card: Card) -> CardFace:
        """The card on a page."""
        ...

    def card_text(self, card: Card) -> str:
        """The card in plain text (a terminal), unambiguous beside a seat number."""
        ...

    def describe(self, action: Any) -> str:
        """An action in words, after its player's name: ``plays K♠``, ``passes``."""
        ...


@runtime_checkable
class ShowsTricks(Protocol):
    """How a record steps into tricks: what :func:`walk` needs of a game beyond its rules."""

    def start(self, record: Any) -> State | None:
        """The deal of ``record`` before its first action (a fresh state of the game, that
        the game's ``apply`` plays the record's actions on); None if the game cannot say."""
        ...

    def table(self, state: Any) -> TableView:
        """The hands, the trick being played and the tricks finished, now."""
        ...

    def title(self, state: Any) -> str:
        """The deal in a few words: ``4 players, dealer seat 2, beginner variant``."""
        ...

    def notes(self, state: Any) -> tuple[str, ...]:
        """Lines under the title: how the seats sit, what the table's options change."""
        ...

    def roles(self, state: Any) -> Mapping[int, str]:
        """What a seat is in this deal, by seat (``taker``, ``partner``, ``dummy``); the
        dealer is said apart."""
        ...

    def undealt(self, state: Any) -> tuple[Fact, ...]:
        """The cards dealt to no hand, titled (French Tarot's chien, Tre's talon)."""
        ...

    def facts(self, state: Any) -> tuple[Fact, ...]:
        """What a finished deal's replay states beside the table."""
        ...

    def replay_line(self, state: Any, seat: int, action: Any, who: str) -> str | None:
        """The line a text replay prints for an action that plays no card to a trick (a
        bid, a discard), ``who`` naming its seat; None for an action it does not print.
        ``state`` is the finished deal (a line may tell what only later actions show, like
        the trumps a poignée kept hidden)."""
        ...


@runtime_checkable
class ExplainsScores(Protocol):
    def breakdown(self, state: Any) -> tuple[str, ...]:
        """How a finished deal's scores were made, term by term, one line each (empty when
        there is nothing to explain, like a deal passed out)."""
        ...


@runtime_checkable
class TalliesMatches(Protocol):
    """A game whose own rules score a match of several deals (see
    :class:`~arena.games.base.ScoresMatches`): how the surfaces name it."""

    @property
    def match_name(self) -> str:
        """What a match is called, in the game's words: ``game``."""
        ...

    @property
    def match_rule(self) -> str:
        """How a match is played and won, in a sentence."""
        ...


@runtime_checkable
class Display(ShowsForms, ShowsCards, ShowsTricks, ExplainsScores, Protocol):
    """Everything a surface asks of a game's display. (:class:`TalliesMatches` too, for a
    game with matches.)"""


# ------------------------------------------------------------------------------ generic
class GenericDisplay:
    """The display of a game that declares none: its own notation, plain points, and no
    table to step (:meth:`start` says None): the surfaces list the record's actions."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game

    def form(self, options: Any) -> str:
        return f"{self.game.players_of(options)} players"

    def card_face(self, card: Card) -> CardFace:
        name = self.game.card_name(card)
        return CardFace(name, name)

    def card_text(self, card: Card) -> str:
        return self.game.card_name(card)

    def describe(self, action: Any) -> str:
        return self.game.format_action(action)

    def start(self, record: Any) -> State | None:
        return None

    def table(self, state: Any) -> TableView:
        shown = self.game.revealed(state)
        return TableView(tuple(tuple(sorted(h)) for h in shown.hands), (), ())

    def title(self, state: Any) -> str:
        return f"{self.game.title}, {state.players} players, dealer seat {state.dealer}"

    def notes(self, state: Any) -> tuple[str, ...]:
        return ()

    def roles(self, state: Any) -> Mapping[int, str]:
        return {}

    def undealt(self, state: Any) -> tuple[Fact, ...]:
        cards = self.game.revealed(state).undealt
        return (Fact("not dealt", (FactLine(cards=cards),)),) if cards else ()

    def facts(self, state: Any) -> tuple[Fact, ...]:
        return ()

    def replay_line(self, state: Any, seat: int, action: Any, who: str) -> str | None:
        return f"{who}: {self.game.format_action(action)}"

    def breakdown(self, state: Any) -> tuple[str, ...]:
        return ()


def display_of(game: AnyGame) -> Display:
    """The game's own display, or the generic one for a game without."""
    display = getattr(game, "display", None)
    if isinstance(display, Display):
        return display
    return GenericDisplay(game)


def game_form(game: AnyGame, options: Any) -> str:
    """The game and its table's form, for lists: ``French Tarot, 2 players with the dummy``."""
    return f"{game.title}, {display_of(game).form(options)}"


def score_unit(game: AnyGame) -> ScoreUnit:
    """The unit of ``game``'s scores, as its declaration says (one source for the wire's
    offer, the docs and every surface)."""
    return game.declaration.score


# --------------------------------------------------------------------------------- walk
@dataclass(frozen=True, slots=True)
class Step:
    """One action of a record, and the table once it is applied."""

    index: int
    """The action's place in the record (0, 1, 2...): decision ``index`` of the table's log."""
    seat: int
    """The seat the action was for."""
    player: int
    """The player who decided it: the seat itself, except where a player decides for a seat
    of no player (French Tarot's dummy, played by the defender)."""
    action: Any
    text: str
    """The action in words (:meth:`ShowsCards.describe`)."""
    table: TableView
    completes: TrickView | None
    """The trick this action completed, if it did."""
    plays: bool
    """Whether the action put a card on the table (a card of a trick)."""


@dataclass(frozen=True, slots=True)
class Walk:
    """A record stepped through the rules: the deal as dealt, every step, the final state."""

    first: TableView
    steps: tuple[Step, ...]
    state: State

    @property
    def tricks(self) -> tuple[TrickView, ...]:
        return self.steps[-1].table.tricks if self.steps else self.first.tricks

    @property
    def deciders(self) -> dict[int, int]:
        """Who decided for the seats of no player: seat -> the player who played it (the
        last one to, should it change)."""
        return {s.seat: s.player for s in self.steps if s.seat != s.player}


def walk(game: AnyGame, record: Record, display: Display | None = None) -> Walk | None:
    """``record`` step by step through the game's rules; None for a game whose display cannot
    start a deal (:class:`GenericDisplay`). ValueError names an action the rules refuse."""
    display = display or display_of(game)
    state = display.start(record)
    if state is None:
        return None
    first = display.table(state)
    before = first
    steps = []
    for index, (seat, action) in enumerate(record.actions):
        player = game.decider(state)
        try:
            game.apply(state, action, seat)
        except ValueError as exc:
            raise ValueError(f"action {index} ({game.format_action(action)}) of seat {seat} "
                             f"is refused: {exc}") from None
        now = display.table(state)
        completes = now.tricks[-1] if len(now.tricks) > len(before.tricks) else None
        plays = completes is not None or len(now.trick) > len(before.trick)
        steps.append(Step(index, seat, seat if player is None else player, action,
                          display.describe(action), now, completes, plays))
        before = now
    return Walk(first, tuple(steps), state)


def charged_seats(game: AnyGame, record: Record, seats: Sequence[int]) -> dict[int, int]:
    """For each decision of ``record`` at one of ``seats``, the player charged with it (the
    one who decided, :meth:`~arena.games.base.Game.decider`): decision index -> player. Only
    the decisions asked for are looked at, but the record is stepped to the last of them."""
    wanted = set(seats)
    display = display_of(game)
    state = display.start(record)
    out: dict[int, int] = {}
    if state is None:
        return out
    last = max((i for i, (s, _) in enumerate(record.actions) if s in wanted), default=-1)
    for index, (seat, action) in enumerate(record.actions[:last + 1]):
        if seat in wanted:
            player = game.decider(state)
            out[index] = seat if player is None else player
        game.apply(state, action, seat)
    return out
