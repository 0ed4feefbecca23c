"""Deals of Tre e Venticinque consistent with what one seat has seen: the hidden cards, drawn.

The same method as French Tarot's :class:`~clients.sdk.Sampler`, whose exact counting and drawing
:class:`TreSampler` reuses (they know places and room, not the game); only what a seat of this
game knows differs:

- its own hand and every card played (the tricks and the Matto's exchange are public: the
  exchange moves a card between two seats' tricks, never from a hand or the discard);
- the dealer knows its own discard; for the two other seats the discard is three hidden cards
  that hold no King, no trump and no Matto (the rule of the discard). The engine lets a dealer
  with fewer than three other cards complete it with plain trumps; such a deal needs the dealer
  to have held every trump, every King and the Matto, so the sampler admits it only when no
  deal of the ordinary kind is consistent (then no longer counted exactly: ``exact`` is False);
- the voids revealed by play: a seat that did not follow the suit led holds none of it, and
  none of the trumps either unless it played one; one that did not play a trump when a trump
  (or the Matto) was led holds no trump. The Matto may be played instead of any card once its
  holder has won a trick, so it shows nothing; there is no obligation to go higher, so no card
  shows a ceiling.

Draws are uniform over the deals those rules admit, counted exactly (three places at most, so the
count is always small). A view that admits no deal raises
:class:`~clients.sdk.NoConsistentDealError`: a bug in the view or in the sampler, never a
position of a real game.

::

    sampler = TreSampler(table.observation, seed=7)
    for sample in sampler.samples(50):
        state = sample.state()  # an engine state at the view's position, ready to simulate
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.games.tre_e_venticinque import DISCARDS, PLAYS, Deal, DealState, Observation, Phase
from arena.games.tre_e_venticinque.cards import (
    FULL_DECK,
    KINGS_MASK,
    MATTO,
    MATTO_BIT,
    ONE_THIRD_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
    Card,
    Hand,
    cards_of,
    mask_of,
)
from arena.games.tre_e_venticinque.deal import HAND_SIZE, PLAYERS, TALON_SIZE
from arena.games.tre_e_venticinque.game import trick_follow
from arena.games.tre_e_venticinque.simulate import apply_unchecked, copy_state

from ._view import TableView
from .sampler import EXACT_LIMIT, HIDDEN, Constraints, NoConsistentDealError, Sampler

DISCARD_BANNED: Hand = KINGS_MASK | TRUMP_MASK | MATTO_BIT
"""What the rule of the discard keeps out of it."""
LAST_RESORT_DISCARD: Hand = KINGS_MASK | MATTO_BIT | (TRUMP_MASK & ~ONE_THIRD_MASK)
"""What a dealer short of other cards still may not discard (Kings, the Matto, the 1, the 21)."""


@dataclass(frozen=True, slots=True)
class TreSample:
    """One deal consistent with the view: every hand now and the discard."""

    view: Observation
    hands: tuple[Hand, ...]
    """By seat, the cards held now (this seat's own hand as it is)."""
    hidden: Hand
    """The dealer's discard so far (the seat's own when it deals)."""
    played: tuple[Hand, ...]

    def dealt(self) -> Deal:
        """A deal as dealt that leads to this sample: the hands with their played cards back,
        the dealer's three cards taken up being the ones it discards (which three of its 28
        were the talon changes nothing once they are taken up)."""
        hands = [hand | played for hand, played in zip(self.hands, self.played, strict=True)]
        dealer = self.view.dealer
        talon = self.hidden
        rest = hands[dealer]
        while talon.bit_count() < TALON_SIZE:  # the dealer is still discarding
            low = rest & -rest
            talon |= low
            rest ^= low
        hands[dealer] = rest & ~talon
        return Deal(dealer, tuple(tuple(cards_of(h)) for h in hands), tuple(cards_of(talon)))

    def state(self) -> DealState:
        """An engine state at the view's position: :meth:`dealt` replayed with the simulation
        fast path (:mod:`arena.games.tre_e_venticinque.simulate`)."""
        state = DealState(self.dealt())
        for card in cards_of(self.hidden):
            apply_unchecked(state, DISCARDS[card])
        return replay_tricks(state, self.view)


def replay_tricks(state: DealState, view: Observation) -> DealState:
    """``state`` (past the discard) with the view's tricks played, through the fast path."""
    for trick in view.tricks:
        for card in trick.cards:
            apply_unchecked(state, PLAYS[card])
    for _, card in view.current_trick:
        apply_unchecked(state, PLAYS[card])
    return state


class TreSampler(Sampler):
    """Draws :class:`TreSample` deals consistent with ``view`` (a seat's
    :class:`~arena.games.tre_e_venticinque.Observation`, or a :class:`~clients.sdk.TableView`
    holding one); the same seed gives the same draws.

    Raises :class:`~clients.sdk.NoConsistentDealError` (at construction) when no deal is
    consistent, and ValueError for a seat other than the dealer during the discard (it cannot
    tell how many cards are laid yet; it never has to decide then).
    """

    def __init__(
        self, view: Observation | TableView, seed: int = 0, *, exact_limit: int = EXACT_LIMIT,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        observation = view.observation if isinstance(view, TableView) else view
        if not isinstance(observation, Observation):
            raise TypeError(f"{view!r} is not a view of Tre e Venticinque")
        if observation.phase is Phase.DISCARDING and observation.seat != observation.dealer:
            raise ValueError(f"seat {observation.seat} cannot tell how much of the discard "
                             "is laid: only the dealer's view is sampled during the discard")
        self._last_resort = False
        try:
            super().__init__(observation, seed, exact_limit=exact_limit,  # type: ignore[arg-type]
                             deadline=deadline, clock=clock)
        except NoConsistentDealError:
            if observation.seat == observation.dealer:
                raise
            self._last_resort = True  # the discard may hold plain trumps (module docstring)
            super().__init__(observation, seed, exact_limit=exact_limit,  # type: ignore[arg-type]
                             deadline=deadline, clock=clock)
            # The relaxed rule admits more than the engine would (a dealer with other cards to
            # lay never discards a trump): such deals are drawn, not counted.
            self._memo = None
            self.deals = None

    def sample(self) -> TreSample:  # type: ignore[override]
        """One deal consistent with the view."""
        sample = super().sample()
        assert isinstance(sample, TreSample)
        return sample

    def _constraints_of(self, view: object) -> Constraints:  # type: ignore[override]
        assert isinstance(view, Observation)
        return tre_constraints(view, self._last_resort)

    def _admits(self, sample: object) -> bool:
        return True  # every deal of this game is played

    def _sample_of(self, placed: list[Hand]) -> TreSample:  # type: ignore[override]
        c = self.constraints
        hands = list(c.known)
        hidden = c.hidden_known
        for place, cards in zip(c.places, placed, strict=True):
            if place == HIDDEN:
                hidden |= cards
            else:
                hands[place] |= cards
        view = self.view
        assert isinstance(view, Observation)
        return TreSample(view, tuple(hands), hidden, c.played)


def play_exclusions(view: Observation) -> list[Hand]:
    """By seat, the cards its play has shown it cannot hold now (the voids of the module
    docstring)."""
    excluded = [0] * PLAYERS
    tricks = [trick.played_by() for trick in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for plays in tricks:
        cards = [card for _, card in plays]
        for index in range(1, len(plays)):
            seat, card = plays[index]
            if card == MATTO:
                continue
            follow = trick_follow(cards[:index])
            if follow < 4:
                if card // 14 != follow or card >= 56:
                    excluded[seat] |= SUIT_MASKS[follow]
                    if card < 56:
                        excluded[seat] |= TRUMP_MASK
            elif card < 56:
                excluded[seat] |= TRUMP_MASK
    return excluded


def tre_constraints(view: Observation, last_resort: bool = False) -> Constraints:
    """Where the cards ``view``'s seat cannot see may be (the module docstring's rules);
    ``last_resort`` lets the hidden discard hold plain trumps."""
    me = view.seat
    played = [0] * PLAYERS
    for trick in view.tricks:
        for seat, card in trick.played_by():
            played[seat] |= 1 << card
    for seat, card in view.current_trick:
        played[seat] |= 1 << card
    all_played = played[0] | played[1] | played[2]
    mine = mask_of(view.hand)
    known = [0] * PLAYERS
    known[me] = mine
    excluded = play_exclusions(view)
    dealer = view.dealer
    hidden_known = 0
    hidden_room = 0
    if me == dealer:
        hidden_known = mask_of(view.discard or ())
    elif view.phase is not Phase.DISCARDING:
        hidden_room = TALON_SIZE
    unseen = FULL_DECK & ~(mine | all_played | hidden_known)
    places: list[int] = []
    room: list[int] = []
    for seat in range(PLAYERS):
        if seat != me:
            places.append(seat)
            room.append(HAND_SIZE - played[seat].bit_count())
    if hidden_room:
        places.append(HIDDEN)
        room.append(hidden_room)
    if sum(room) != unseen.bit_count() or min(room) < 0:
        raise NoConsistentDealError(
            f"seat {me}'s view leaves {unseen.bit_count()} cards unseen for "
            f"{sum(room)} places ({dict(zip(places, room, strict=True))})")
    banned_hidden = LAST_RESORT_DISCARD if last_resort else DISCARD_BANNED
    allowed: dict[Card, int] = {}
    for card in cards_of(unseen):
        bit = 1 << card
        mask = 0
        for index, place in enumerate(places):
            banned = banned_hidden if place == HIDDEN else excluded[place]
            if not banned & bit:
                mask |= 1 << index
        allowed[card] = mask
    return Constraints(me, tuple(places), tuple(room), allowed, tuple(known), tuple(played),
                       hidden_known)


def position(template: DealState, sample: TreSample) -> DealState:
    """The engine state of ``sample`` at the view's position, from ``template``, the state of
    any other sample of the same view (:meth:`TreSample.state`): what play changed does not
    depend on the hidden cards, so only the hands and the discard differ. Much cheaper than
    replaying the deal for each draw. (``deal`` stays the template's: a simulation reads the
    dealer from it, never the hands.)"""
    state = copy_state(template)
    state.hands = list(sample.hands)
    state.discard = sample.hidden
    return state
