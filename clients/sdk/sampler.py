"""Deals consistent with what one seat has seen: the hidden cards, drawn at random.

A search bot cannot see the other hands; it can play out many deals that agree with everything
it knows and pick the card that does best over them ("determinization"). :class:`Sampler`
draws those deals from a :class:`~clients.sdk.TableView`:

- its own hand, every card played, the chien once shown, the trumps the taker had to discard,
  its own discard when it is the taker;
- the poignées shown (those trumps are in that hand until played; one completed by the Excuse
  means its player holds the Excuse and no other trump; the trumps a player chose to hide may
  be any of its others);
- the voids revealed by play: a seat that did not follow the led suit holds none of it, one
  that did not trump when it could not follow holds no trump, one that played a trump lower
  than the trick's best trump holds none higher; with five players, a first lead in the called
  suit (other than the called card) shows a hand of that suit only;
- the chien shown goes to the taker: its Kings, bouts and trumps (less the trumps shown in the
  discard) are in the taker's hand until played, its other cards in that hand or in the
  discard; the discard, unseen by the others, holds no King, no bout and no trump but those
  shown;
- no seat was dealt the Petit alone (the deal would have been cancelled);
- with two players, the dummy's hand (seat :data:`~arena.games.french_tarot.deal.DUMMY`) is a
  third hand, hidden like the other player's until it is shown (at the end of the discard, or of
  the bidding for a Garde Sans or Contre), then known card for card; it shows no poignée, and it
  is dealt no Petit alone either.

The called King's holder needs no rule of its own: it is played (then the partner is known) or
lies in a hand or a hidden chien like any card; the engine derives the partner from the deal.
The Excuse's exchange happens when the deal is scored and tells nothing about the hands.

Each draw is uniform over the deals admitted by those rules (every such deal equally likely;
what the players' choices suggest beyond the rules is for the bot to weigh). It is exact: the
cards are grouped by the places they may be in, the number of deals is counted for each way of
spreading the groups over the places (a small dynamic programme over the places' free room), and
a draw follows the counts. When a position has so many groups that the count would take long, the
sampler switches to placing the most constrained cards first at random, restarting on a dead end:
every deal still obeys all the rules above, but is no longer exactly uniform (``exact`` says
which). A view that admits no deal at all raises :class:`NoConsistentDealError`: a bug in the
view or in the sampler, never a position of a real game.

A search with a deadline gives it to the sampler (``deadline``, on ``clock``): the exact count
then stops there too, as if past its limit (the draws fall back as above), and a fallback draw
still looking for a deal at the deadline raises :class:`DeadlinePassedError`. Neither step can
otherwise be cut short once begun (the count up to its limit takes about 20 ms on an idle
machine, several times that on a loaded one).

::

    sampler = Sampler(view, seed=7)
    for sample in sampler.samples(50):
        state = sample.state()  # an engine state at the view's position, ready to simulate
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from math import factorial

from arena.games.french_tarot import (
    CallCard,
    ChelemChoice,
    Deal,
    Discard,
    GameState,
    Phase,
    ShownPoignee,
)
from arena.games.french_tarot.actions import PLAYS
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    EXCUSE_BIT,
    FULL_DECK,
    KINGS_MASK,
    PETIT_BIT,
    TRUMP_MASK,
    Card,
    Hand,
    cards_of,
    mask_of,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, DUMMY, HAND_SIZES
from arena.games.french_tarot.simulate import apply_unchecked, show_poignee_unchecked
from arena.games.french_tarot.tricks import exclusions

from ._view import TableView

HIDDEN = -1
"""The place of the hidden cards (a chien nobody saw, or the taker's discard) in a
:class:`Constraints`' ``places``."""

EXACT_LIMIT = 20_000
"""Most steps (states and spreads of a group) the exact count may take before the sampler falls
back: about 20 ms, so that a sampler is cheap to build for every decision."""
CLOCK_EVERY = 64
"""Steps of the count (attempts of a fallback draw: a quarter of that) between two readings of
the clock, when the sampler has a deadline: a few hundred microseconds at most."""


PlayWatch = Callable[[GameState, int, Card], None]
"""Called by :meth:`Sample.state` with the state before each card played, its seat and card."""


class NoConsistentDealError(ValueError):
    """No deal agrees with the view: the view or the sampler is wrong, not the game."""


class DeadlinePassedError(TimeoutError):
    """The sampler's deadline passed during a draw: no deal is returned."""


@dataclass(frozen=True, slots=True)
class Constraints:
    """Where the cards this seat cannot see may be, as the rules of the module docstring say.

    ``places`` are the other seats and, when some cards are out of every hand, :data:`HIDDEN`;
    ``room[i]`` is how many unseen cards ``places[i]`` holds; ``allowed[card]`` the mask of the
    place indexes (bit ``i`` for ``places[i]``) that may hold each unseen card.
    """

    seat: int
    places: tuple[int, ...]
    room: tuple[int, ...]
    allowed: dict[Card, int]
    known: tuple[Hand, ...]
    """By seat: the cards it is known to hold now (this seat's own hand, shown cards)."""
    played: tuple[Hand, ...]
    """By seat: the cards it has played."""
    hidden_known: Hand
    """Cards known to be hidden: this seat's own discard, or the trumps shown from the discard."""

    @classmethod
    def of(cls, view: TableView) -> Constraints:
        return _constraints(view)


@dataclass(frozen=True, slots=True)
class Sample:
    """One deal consistent with the view: every hand now, and the hidden cards."""

    view: TableView
    hands: tuple[Hand, ...]
    """By seat, the cards held now (this seat's own hand as it is)."""
    hidden: Hand
    """The cards in no hand: the chien while nobody has seen it, or the taker's discard."""
    played: tuple[Hand, ...]

    def dealt(self) -> Deal:
        """The deal as dealt, before the bidding: the hands with their played cards back, and
        for a taker who took a shown chien, its discard back and the chien out."""
        hands, chien = self.dealt_masks()
        return Deal(self.view.options.players, self.view.dealer,
                    tuple(tuple(cards_of(h)) for h in hands), tuple(cards_of(chien)))

    def dealt_masks(self) -> tuple[list[Hand], Hand]:
        """:meth:`dealt` as masks: the hands by seat and the chien."""
        view = self.view
        hands = [hand | played for hand, played in zip(self.hands, self.played, strict=True)]
        chien = self.hidden
        if _chien_taken(view):
            assert view.taker is not None and view.chien is not None
            chien = mask_of(view.chien)
            hands[view.taker] = (hands[view.taker] | self.hidden) & ~chien
        return hands, chien

    def state(self, watch: PlayWatch | None = None) -> GameState:
        """An engine state at the view's position, built by replaying what the table did from
        :meth:`dealt` with the simulation fast path (:mod:`arena.games.french_tarot.simulate`).
        ``watch`` sees each card of the card play before it is played, with the state it is
        played from (a search can ask how likely the drawn hands make the cards seen)."""
        view = self.view
        state = GameState(self.dealt(), view.options)
        for _, action in view.bids:
            apply_unchecked(state, action)
        if state.phase is Phase.FINISHED:
            return state
        if view.called_card is not None:
            apply_unchecked(state, CallCard(view.called_card))
        if state.phase is Phase.DISCARDING:
            discard = self.hidden if not view.is_taker else mask_of(view.discard)
            public = mask_of(view.discarded_trumps)
            for card in (*view.discarded_trumps, *cards_of(discard & ~public)):
                if state.phase is not Phase.DISCARDING:
                    break
                apply_unchecked(state, Discard(card))
        if state.phase is Phase.CHELEM and (view.phase is not Phase.CHELEM or view.tricks
                                            or view.current_trick):
            apply_unchecked(state, ChelemChoice(view.chelem_announced))
        pending = {p.seat: p for p in view.poignees}
        for trick in view.tricks:
            for seat, card in trick.played_by():
                if watch is not None:
                    watch(state, seat, card)
                _play(state, seat, card, pending)
        for seat, card in view.current_trick:
            if watch is not None:
                watch(state, seat, card)
            _play(state, seat, card, pending)
        for shown in pending.values():
            show_poignee_unchecked(state, shown)
        return state


def _play(state: GameState, seat: int, card: Card, pending: dict[int, ShownPoignee]) -> None:
    shown = pending.pop(seat, None)
    if shown is not None:
        show_poignee_unchecked(state, shown)
    apply_unchecked(state, PLAYS[card])


class Sampler:
    """Draws :class:`Sample` deals consistent with ``view``; the same seed gives the same draws.

    ``deadline`` (a ``clock()`` time; None: none) stops the exact count when it passes, and a
    fallback draw then raises :class:`DeadlinePassedError` (module docstring). Raises
    :class:`NoConsistentDealError` (at construction) when no deal is consistent.
    """

    def __init__(
        self, view: TableView, seed: int = 0, *, exact_limit: int = EXACT_LIMIT,
        deadline: float | None = None, clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.view = view
        self.rng = random.Random(seed)
        self.deadline = deadline
        self.clock = clock
        self.constraints = c = self._constraints_of(view)
        self._base = list(c.known)
        self._played = c.played
        pinned: list[Hand] = [0] * len(c.places)
        free = list(c.room)
        groups: dict[int, list[Card]] = {}
        for card, allowed in c.allowed.items():
            if allowed & (allowed - 1) == 0:  # one place only
                place = allowed.bit_length() - 1
                if allowed == 0:
                    raise NoConsistentDealError(
                        f"no place may hold {card} in the view of seat {view.seat}")
                pinned[place] |= 1 << card
                free[place] -= 1
            else:
                groups.setdefault(allowed, []).append(card)
        if min(free, default=0) < 0:
            raise NoConsistentDealError(
                f"seat {view.seat}'s view pins more cards on a place than it holds")
        self._pinned = pinned
        # Most constrained first; the largest, most open group last (its spread is forced).
        self._groups = sorted(groups.items(), key=lambda g: (g[0].bit_count(), len(g[1])))
        self._free = tuple(free)
        self._memo: dict[tuple[int, tuple[int, ...]], int] | None = {}
        self._visits = 0
        self._limit = exact_limit
        self._check_at = exact_limit if deadline is None else min(exact_limit, CLOCK_EVERY)
        total = self._count(0, self._free)
        # Counted: the draws may add the few terminal states freely, whatever the time.
        self._limit = self._check_at = 1 << 62
        if total is None:
            self._memo = None
            if not _feasible(self._groups, self._free):
                raise NoConsistentDealError(f"no deal is consistent with seat {view.seat}'s view")
        elif total == 0:
            raise NoConsistentDealError(f"no deal is consistent with seat {view.seat}'s view")
        self.deals = total
        """How many deals the view admits (None when the exact count was abandoned), before
        the cancelled deals (the Petit alone) are set aside."""

    def _past_deadline(self) -> bool:
        return self.deadline is not None and self.clock() > self.deadline

    @property
    def exact(self) -> bool:
        """Whether draws are exactly uniform (the count fitted in ``exact_limit``)."""
        return self._memo is not None

    # ---------------------------------------------------------------- exact counting
    def _count(self, index: int, free: tuple[int, ...]) -> int | None:
        """Deals placing groups ``index..`` into ``free`` room; None past the visit limit."""
        memo = self._memo
        assert memo is not None
        key = (index, free)
        got = memo.get(key)
        if got is not None:
            return got
        self._visits += 1
        if self._visits > self._check_at:
            if self._visits > self._limit or self._past_deadline():
                return None
            self._check_at = min(self._limit, self._visits + CLOCK_EVERY)
        groups = self._groups
        if index == len(groups):
            total = 1 if not any(free) else 0
        elif index == len(groups) - 1:  # the last group has one spread: exactly the room left
            allowed, cards = groups[index]
            total = 0
            if sum(free) == len(cards) and not any(
                    f for i, f in enumerate(free) if not allowed >> i & 1):
                total = factorial(len(cards))
                for f in free:
                    total //= factorial(f)
        else:
            allowed, cards = groups[index]
            total = 0
            for spread, ways in _spreads(len(cards), allowed, free):
                self._visits += 1
                rest_free = tuple(f - s for f, s in zip(free, spread, strict=True))
                rest = self._count(index + 1, rest_free)
                if rest is None:
                    return None
                total += ways * rest
        memo[key] = total
        return total

    # ------------------------------------------ what another game's sampler redefines
    # The counting and drawing below know places, room and groups only, not the game: a
    # sampler for another game (:mod:`clients.sdk.tre_sampler`) redefines these three.
    def _constraints_of(self, view: TableView) -> Constraints:
        return _constraints(view)

    def _admits(self, sample: Sample) -> bool:
        """Whether the rules let the deal behind ``sample`` be played (not cancelled)."""
        return not _petit_sec_dealt(sample)

    # ---------------------------------------------------------------------- drawing
    def sample(self) -> Sample:
        """One deal consistent with the view (:class:`DeadlinePassedError`: see the class)."""
        for _ in range(1000):
            placed = self._draw_exact() if self._memo is not None else self._draw_greedy()
            sample = self._sample_of(placed)
            if self._admits(sample):
                return sample
        raise NoConsistentDealError(  # pragma: no cover - a Petit alone in every deal drawn
            f"every deal drawn for seat {self.view.seat} has the Petit alone in a hand")

    def samples(self, count: int) -> Iterator[Sample]:
        for _ in range(count):
            yield self.sample()

    def _draw_exact(self) -> list[Hand]:
        rng = self.rng
        placed = list(self._pinned)
        free = self._free
        for index, (allowed, cards) in enumerate(self._groups):
            options = []
            total = 0
            for spread, ways in _spreads(len(cards), allowed, free):
                rest_free = tuple(f - s for f, s in zip(free, spread, strict=True))
                rest = self._count(index + 1, rest_free)
                assert rest is not None
                if rest:
                    total += ways * rest
                    options.append((total, spread, rest_free))
            pick = rng.randrange(total)
            spread, free = next((s, f) for t, s, f in options if pick < t)
            shuffled = cards.copy()
            rng.shuffle(shuffled)
            at = 0
            for place, size in enumerate(spread):
                for card in shuffled[at:at + size]:
                    placed[place] |= 1 << card
                at += size
        return placed

    def _draw_greedy(self) -> list[Hand]:
        """Most constrained cards first, each to an open place chosen in proportion to its free
        room; start again on a dead end (rare: the open cards come last)."""
        rng = self.rng
        cards = [(allowed, card) for allowed, group in self._groups for card in group]
        for attempt in range(10_000):
            if attempt % (CLOCK_EVERY // 4) == 0 and self._past_deadline():
                raise DeadlinePassedError(
                    f"the deadline passed while drawing a deal for seat {self.view.seat}")
            rng.shuffle(cards)
            cards.sort(key=lambda ac: ac[0].bit_count())
            placed = list(self._pinned)
            free = list(self._free)
            for allowed, card in cards:
                weights = [free[i] if allowed >> i & 1 else 0 for i in range(len(free))]
                total = sum(weights)
                if not total:
                    break
                pick = rng.randrange(total)
                place = 0
                while pick >= weights[place]:
                    pick -= weights[place]
                    place += 1
                placed[place] |= 1 << card
                free[place] -= 1
            else:
                return placed
        raise NoConsistentDealError(  # pragma: no cover - feasible, yet never found
            f"no consistent deal found for seat {self.view.seat} in 10,000 attempts")

    def _sample_of(self, placed: list[Hand]) -> Sample:
        c = self.constraints
        hands = list(self._base)
        hidden = c.hidden_known
        for place, cards in zip(c.places, placed, strict=True):
            if place == HIDDEN:
                hidden |= cards
            else:
                hands[place] |= cards
        return Sample(self.view, tuple(hands), hidden, self._played)


# ----------------------------------------------------------------------- constraints
def _chien_taken(view: TableView) -> bool:
    """The taker took a chien shown to all (Petite, Garde) and discards or has discarded."""
    return (view.contract is not None and view.contract.chien_shown and view.chien is not None
            and view.taker is not None)


def _constraints(view: TableView) -> Constraints:
    n = view.options.players
    seats = view.options.seats  # with two players, the dummy's hand too
    me = view.seat
    hand_size = HAND_SIZES[n]
    chien_size = CHIEN_SIZES[n]
    played = [0] * seats
    for trick in view.tricks:
        for seat, card in trick.played_by():
            played[seat] |= 1 << card
    for seat, card in view.current_trick:
        played[seat] |= 1 << card
    all_played = 0
    for cards in played:
        all_played |= cards
    mine = mask_of(view.hand)
    known = [0] * seats
    known[me] = mine
    dummy_seen = _dummy_seen(view)
    if dummy_seen is not None:
        known[DUMMY] = dummy_seen
    excluded = [0] * seats  # cards each seat cannot hold
    _exclude_by_play(view, excluded)
    taker = view.taker
    shown_trumps = mask_of(view.discarded_trumps)
    hidden_known = 0
    hidden_room = 0
    hidden_excluded = 0
    chien_taken = _chien_taken(view)
    if chien_taken:
        assert taker is not None and view.chien is not None
        chien = mask_of(view.chien)
        if taker == me:
            hidden_known = mask_of(view.discard)
            # Discarding still: the rest of the discard is this seat's choice, not hidden.
        else:
            hidden_known = shown_trumps
            hidden_room = chien_size - shown_trumps.bit_count()
            hidden_excluded = KINGS_MASK | BOUTS_MASK | TRUMP_MASK
            for seat in range(seats):
                if seat != taker:
                    excluded[seat] |= chien
            known[taker] |= chien & (KINGS_MASK | BOUTS_MASK | TRUMP_MASK) & ~shown_trumps
    elif taker is None or view.contract is None or not view.contract.chien_shown or (
        view.chien is None
    ):
        hidden_room = chien_size  # a chien nobody has seen (yet, or ever)
    for shown in view.poignees:
        cards = mask_of(shown.cards)
        if shown.seat != me:
            known[shown.seat] |= cards
        if cards & EXCUSE_BIT:  # the Excuse stood in for a missing trump: no other trump
            excluded[shown.seat] |= TRUMP_MASK & ~cards
    for seat in range(seats):
        known[seat] &= ~played[seat]
        clash = known[seat] & excluded[seat]
        if clash and seat != me:
            raise NoConsistentDealError(
                f"seat {seat} is known to hold {cards_of(clash)} and cannot hold them")
    seen = mine | all_played | hidden_known
    for seat in range(seats):
        seen |= known[seat]
    unseen = FULL_DECK & ~seen
    places: list[int] = []
    room: list[int] = []
    for seat in range(seats):
        if seat == me or (seat == DUMMY and dummy_seen is not None):
            continue  # every card of a dummy shown is known: no place for an unseen card
        size = hand_size - played[seat].bit_count()
        places.append(seat)
        room.append(size - known[seat].bit_count())
    if hidden_room:
        places.append(HIDDEN)
        room.append(hidden_room)
    if sum(room) != unseen.bit_count() or min(room, default=0) < 0:
        raise NoConsistentDealError(
            f"seat {me}'s view leaves {unseen.bit_count()} cards unseen for "
            f"{sum(room)} places ({dict(zip(places, room, strict=True))})")
    allowed: dict[Card, int] = {}
    for card in cards_of(unseen):
        bit = 1 << card
        mask = 0
        for index, place in enumerate(places):
            banned = hidden_excluded if place == HIDDEN else excluded[place]
            if not banned & bit:
                mask |= 1 << index
        allowed[card] = mask
    return Constraints(me, tuple(places), tuple(room), allowed, tuple(known), tuple(played),
                       hidden_known)


def _dummy_seen(view: TableView) -> Hand | None:
    """With two players, the dummy's cards now once this seat has seen them (shown to both
    players, or handed to the defender with a request to play them); None while hidden."""
    if not view.options.has_dummy:
        return None
    cards = view.observation.dummy
    return None if cards is None else mask_of(cards)


def _exclude_by_play(view: TableView, excluded: list[int]) -> None:
    """Voids in suits and trumps, and trump ceilings, shown by the cards played (and with five
    players, a first lead in the called suit)."""
    tricks = [t.played_by() for t in view.tricks]
    if view.current_trick:
        tricks.append(view.current_trick)
    for number, plays in enumerate(tricks):
        for seat, shown in exclusions(plays, view.called_card if number == 0 else None):
            excluded[seat] |= shown


# ---------------------------------------------------------------------- combinatorics
def _spreads(
    size: int, allowed: int, free: tuple[int, ...]
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every way to spread ``size`` cards of one group over its ``allowed`` places within their
    ``free`` room, with the number of ways to choose which cards go where (a multinomial)."""
    places = [i for i in range(len(free)) if allowed >> i & 1]
    spread = [0] * len(free)
    fact = factorial(size)

    def walk(k: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
        place = places[k]
        if k == len(places) - 1:
            if left <= free[place]:
                spread[place] = left
                yield tuple(spread), ways // factorial(left)
                spread[place] = 0
            return
        capacity = sum(free[p] for p in places[k + 1:])
        for take in range(max(0, left - capacity), min(left, free[place]) + 1):
            spread[place] = take
            yield from walk(k + 1, left - take, ways // factorial(take))
        spread[place] = 0

    if not places:
        if size == 0:
            yield tuple(spread), 1
        return
    yield from walk(0, size, fact)


def _feasible(groups: list[tuple[int, list[Card]]], free: tuple[int, ...]) -> bool:
    """Whether the groups fit the free room at all (a maximum flow, groups to places)."""
    sizes = [len(cards) for _, cards in groups]
    need = sum(sizes)
    flow = [[0] * len(free) for _ in groups]
    used = [0] * len(free)
    pushed = 0
    left = sizes.copy()
    while pushed < need:
        # Breadth-first search for an augmenting path from a group with cards left.
        parent: dict[tuple[str, int], tuple[str, int] | None] = {}
        queue: list[tuple[str, int]] = []
        for g, count in enumerate(left):
            if count:
                parent[("g", g)] = None
                queue.append(("g", g))
        end = None
        while queue and end is None:
            node = queue.pop(0)
            kind, i = node
            if kind == "g":
                for p in range(len(free)):
                    if groups[i][0] >> p & 1 and ("p", p) not in parent:
                        parent[("p", p)] = node
                        if used[p] < free[p]:
                            end = ("p", p)
                            break
                        queue.append(("p", p))
            else:
                for g in range(len(groups)):
                    if flow[g][i] and ("g", g) not in parent:
                        parent[("g", g)] = node
                        queue.append(("g", g))
        if end is None:
            return False
        node = end
        used[end[1]] += 1
        while True:
            prev = parent[node]
            if prev is None:
                left[node[1]] -= 1
                break
            if prev[0] == "g":
                flow[prev[1]][node[1]] += 1
            else:
                flow[node[1]][prev[1]] -= 1
            node = prev
        pushed += 1
    return True


def _petit_sec_dealt(sample: Sample) -> bool:
    """A hand dealt with the Petit as its only trump and no Excuse: the deal was cancelled."""
    hands, _ = sample.dealt_masks()
    return any(hand & (TRUMP_MASK | EXCUSE_BIT) == PETIT_BIT for hand in hands)


