"""A complete bot: it bids on its hand's strength, calls a King, discards, shows a poignée, and
plays to win tricks that hold points. Each decision of the game has its own method.

Run it:   tarot-arena bot sensible_bot:SensibleBot --arg boldness=1.2   (from docs/examples)
"""

from __future__ import annotations

from arena.games.french_tarot import (
    NO_CHELEM,
    PASS,
    Action,
    Bid,
    CallCard,
    Card,
    Contract,
    DeclarePoignee,
    Discard,
    HideTrump,
    Play,
)
from arena.games.french_tarot.cards import half_points, is_bout, is_trump, suit_of
from arena.games.french_tarot.tricks import beats, led_suit, winning_index
from clients.sdk import Bot, DecisionRequest, TableView


class SensibleBot(Bot):
    name = "sensible"
    version = "1.0"

    def __init__(self, boldness: float = 1.0) -> None:
        self.boldness = boldness  # above 1 it bids on weaker hands

    # ------------------------------------------------------------------------------ bidding
    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        hand = table.hand
        trumps = sum(1 for c in hand if is_trump(c))
        # bouts count most, then trumps, then points; 18 cards is the 4-player hand
        strength = (10 * sum(1 for c in hand if is_bout(c)) + 3 * trumps
                    + sum(half_points(c) for c in hand if not is_trump(c)) / 2)
        strength *= self.boldness * 18 / len(hand)
        wanted = Contract.GARDE if strength >= 62 else Contract.PETITE if strength >= 48 else None
        for action in request.legal_actions:  # a bid is legal only above the highest so far
            if isinstance(action, Bid) and action.contract == wanted:
                return action
        return PASS

    # ------------------------------------------------------------------ five players: calling
    def call(self, table: TableView, request: DecisionRequest) -> Action:
        """Call the King of the suit it holds most of: the partner then helps in that suit."""
        calls = [a for a in request.legal_actions if isinstance(a, CallCard)]
        return max(calls, key=lambda a: sum(1 for c in table.hand
                                            if suit_of(c) == suit_of(a.card)))

    # ---------------------------------------------------------------------------- discarding
    def discard(self, table: TableView, request: DecisionRequest) -> Action:
        """One card per request: the cheapest card of its shortest suit (towards a void)."""
        discards = [a for a in request.legal_actions if isinstance(a, Discard)]

        def length(card: Card) -> int:
            return sum(1 for c in table.hand if suit_of(c) == suit_of(card))

        return min(discards, key=lambda a: (is_trump(a.card), length(a.card),
                                            half_points(a.card), a.card))

    def chelem(self, table: TableView, request: DecisionRequest) -> Action:
        return NO_CHELEM  # announcing one and failing costs 200 per defender

    # ------------------------------------------------------------------------------ playing
    def play(self, table: TableView, request: DecisionRequest) -> Action:
        legal = request.legal_actions
        shown = self.poignee(table, request)
        if shown is not None:
            return shown
        cards = [a.card for a in legal if isinstance(a, Play)]
        trick = [card for _, card in table.current_trick]
        at = winning_index(trick)  # the card winning so far; -1 before the lead
        if at < 0:
            return Play(min(cards, key=value))  # lead: the least valuable card
        led, best = led_suit(trick), trick[at]
        winners = [c for c in cards if beats(c, best, led)]
        points = sum(half_points(c) for c in trick)
        if winners and points >= 4:  # a trick worth taking
            return Play(min(winners, key=value))
        return Play(min(cards, key=value))  # give the least

    def poignee(self, table: TableView, request: DecisionRequest) -> Action | None:
        """Before its first card a seat may be offered poignées: it shows the largest one. The
        bonus goes to the side that wins the deal, and a hand this rich in trumps usually
        does."""
        offered = [a for a in request.legal_actions if isinstance(a, DeclarePoignee)]
        return max(offered, key=lambda a: a.level) if offered else None

    def hide(self, table: TableView, request: DecisionRequest) -> Action:
        """Holding more trumps than the poignée shows: keep the highest hidden, so that the
        others do not learn which masters it holds. Asked once per extra trump."""
        return max((a for a in request.legal_actions if isinstance(a, HideTrump)),
                   key=lambda a: a.card)

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        return request.legal_actions[0]  # any request the methods above do not cover


def value(card: Card) -> tuple[int, bool, int]:
    """What a card is worth keeping: points first, then trumps over suit cards, then rank."""
    return (half_points(card), is_trump(card), card)
