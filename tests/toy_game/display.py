"""How the toy game is shown (:class:`arena.games.display.Display`): written only against
:mod:`arena.games.display`, as a user's own game would be, so that every surface (the web
replay, the CLI replay, the lists) shows it with nothing outside ``tests/toy_game`` knowing it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from arena.games.display import CardFace, Fact, TableView, TrickView

SUIT_CLASSES: Final = ("spades", "hearts", "diamonds", "clubs")


class ToyDisplay:
    """Given the game's card names and its state class (the game module builds this, so that
    neither module imports the other)."""


    def __init__(self, card_name: Callable[[int], str], state: Callable[..., Any]) -> None:
        self.card_name = card_name
        self.state = state

    def form(self, options: Any) -> str:
        return f"{options.players} players" + (", suit D trumps" if options.trumps else "")

    def card_face(self, card: int) -> CardFace:
        name = self.card_name(card)
        return CardFace(name, f"{name[0]} of suit {name[1]}", SUIT_CLASSES[card // 3])

    def card_text(self, card: int) -> str:
        return self.card_name(card)

    def describe(self, action: Any) -> str:
        return str(action).replace("play", "plays", 1)

    def start(self, record: Any) -> Any:
        return self.state(record.options, record.dealer, record.hands)

    def table(self, state: Any) -> TableView:
        tricks = tuple(
            TrickView(n, t.leader, tuple(((t.leader + i) % state.players, c)
                                         for i, c in enumerate(t.cards)), t.winner)
            for n, t in enumerate(state.tricks, start=1)
        )
        return TableView(tuple(tuple(sorted(h)) for h in state.hands), state.current_trick,
                         tricks)

    def title(self, state: Any) -> str:
        return (f"Toy Tricks, {state.players} players, dealer seat {state.dealer}"
                + (", suit D trumps" if state.options.trumps else ""))

    def notes(self, state: Any) -> tuple[str, ...]:
        return ("the seat after the dealer leads; follow suit, the highest card wins",)

    def roles(self, state: Any) -> Mapping[int, str]:
        return {}

    def undealt(self, state: Any) -> tuple[Fact, ...]:
        return ()

    def facts(self, state: Any) -> tuple[Fact, ...]:
        return ()

    def replay_line(self, state: Any, seat: int, action: Any, who: str) -> str | None:
        return None  # every action is a card of a trick

    def breakdown(self, state: Any) -> tuple[str, ...]:
        if state.result is None:
            return ()
        n = state.players
        won = [sum(1 for t in state.tricks if t.winner == s) for s in range(n)]
        return (f"tricks won: {', '.join(f'seat {s} {w}' for s, w in enumerate(won))}",
                f"score: {n} x the tricks won - {len(state.tricks)} (every trick)")
