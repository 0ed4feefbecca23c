"""The heuristic's replies inside a search: the cards the seats after the searching one play in
a drawn deal, each as the heuristic would play it from its own seat's view of that deal.

Why: the quick rollout (:func:`clients.search_rollout.rollout_card`) plays every seat as if it
saw every hand, so it misjudges how a real player answers a card: it never trumps in on a
guess, never ducks a trick it cannot see is lost. The replies to the card searched are what
decides its value most, and the opponents the search bot meets most are heuristics: so the rest
of the trick is played by :func:`~clients.heuristic_bot.choose_card`, each seat seeing only its
own hand of the drawn deal and what is public, and only then the quick policy takes over. A
heuristic card costs about 60 microseconds (docs/search-bot.md, "Issue 28, ninth session") against
a few for a quick one: only a few are played per rollout, and what the finished tricks show is
read once per decision (:class:`Replies`).
"""

from __future__ import annotations

from arena.games.french_tarot import GameState, observe
from arena.games.french_tarot.cards import cards_of
from arena.games.french_tarot.definition import FRENCH_TAROT
from arena.games.french_tarot.simulate import play_unchecked, playable
from clients.heuristic_bot import History, choose_card
from clients.sdk import PlayerInfo, TableView

_PLAYERS = {n: tuple(PlayerInfo(s, "", "") for s in range(n)) for n in range(2, 6)}


class Replies:
    """The heuristic's replies of one card decision of the search: every card tried, in every
    deal drawn, is answered after the same finished tricks, so what they show (voids, trump
    ceilings, cards played: :class:`~clients.heuristic_bot.History`) is read once, from the
    first reply's view, and shared by the others. Only for the deals of one decision: the next
    decision has another trick finished."""

    __slots__ = ("history",)

    def __init__(self) -> None:
        self.history: History | None = None

    def reply(self, state: GameState) -> int:
        """The heuristic's card for the seat to act in a drawn deal, from that seat's view of
        it (its own hand, everything public). Not for a dummy's seat (two players)."""
        seat = state.to_act
        assert seat is not None
        mask = playable(state)
        if mask & (mask - 1) == 0:
            return mask.bit_length() - 1
        view = TableView("", seat, _PLAYERS[state.players], observe(state, seat), FRENCH_TAROT)
        history = self.history
        tricks = view.observation.tricks
        if history is None or history.tricks != len(tricks):
            history = self.history = History.of(tricks, state.players, state.taker)
        return choose_card(view, cards_of(mask), history=history)

    def to_trick(self, state: GameState, seat: int) -> None:
        """Play the current trick to its end by the heuristic (the seats after ``seat``, which
        has just played); nothing when the trick is already complete or the deal is over."""
        if state.options.has_dummy:
            return
        while state.to_act is not None and state.trick and state.to_act != seat:
            play_unchecked(state, self.reply(state))


def heuristic_reply(state: GameState) -> int:
    """The heuristic's card for the seat to act in a drawn deal (:meth:`Replies.reply`, alone)."""
    return Replies().reply(state)


def reply_to_trick(state: GameState, seat: int) -> None:
    """The rest of the current trick by the heuristic (:meth:`Replies.to_trick`, alone)."""
    Replies().to_trick(state, seat)
