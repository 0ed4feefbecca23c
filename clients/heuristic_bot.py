"""A rule-of-thumb French Tarot player: what a sensible club player does, card by card.

It follows the advice of the seed articles (count trumps and bouts before bidding, protect the
Petit, draw trumps as taker, play the Excuse on a trick that is lost anyway) and the usual club
practice around it. Deterministic: the same view and request always give the same answer, and a
decision takes well under a millisecond.

**Bidding** counts a hand the classic French way (trumps 2 each and 1 more from the 16 up, the
21 10, the Excuse 8, the Petit by how well it is guarded, Kings 6, a King with its Queen 10,
Queens, Cavaliers and Jacks 3/2/1, long suits, voids and singletons), scaled to the hand size,
and bids Petite, Garde, Garde Sans or Garde Contre above fixed thresholds; it never bids with
fewer than 5 trumps and no bout, and always takes at least a Petite with 8 trumps and a bout.

**Calling** (5 players): a King it lacks, preferably in a suit where it holds the Queen or the
Cavalier, else in its shortest suit.

**Discarding**: makes as many voids as it can in suits without a King (shortest first, face cards
only to complete a void), then low cards of the shortest suits; never points needlessly.

**Play** is card counting plus a one-trick expected value. From the tricks it knows every card
played and who showed a void (in a suit or in trumps) or could not overtrump; from the chien and
the poignées where some cards are. Each unseen card gets a chance of being in each hand. For each
legal card it estimates the chance ``p`` that its side takes the trick (no later opponent holds a
higher card of the suit, or is void and holds a trump high enough; the taker is thought likelier
void in a suit it has not played, since it discarded to make voids) and scores, in half-points
of its side's points minus the other side's,

    (2p - 1) x (points in the trick + the card + what the later players add)
    - what the card is worth kept in hand

where a low card kept is worth nothing, a master card its likely trick, a trump its rank, the 21
its points and more (it cannot be lost, so it waits for a rich trick), and the Petit what is at
stake given how many trumps each side holds (and everything once the opponents have no trump
left: it then waits for the last trick, petit au bout). That single rule gives the club habits:
follow low when the trick is lost, win with the lowest card that wins safely, charge points on a
trick the partner wins safely (including in 5 players once the partner is known), never put the
21 on a poor trick, save the Petit on a safe trick. Around it: the Excuse goes on a lost trick
when the card it saves is worth more than keeping it, never on its own side's trick while it can
wait, and never waits for the last trick (unless the taker announced a chelem, when it is led
last); leads cash master cards in suits the opponents still follow, the taker draws trumps with
master trumps (to bring down the Petit when it does not hold it) or when it holds twice the
opponents' trumps, defenders leave trumps alone and lead into the taker's voids to shorten its
trumps, and in 5 players the defenders lead the called suit to find the partner while it is
unknown (the taker leads a small card of it for the partner's King). Poignées are shown by the
taker's side, and by defenders against a Petite or Garde (the bonus goes to the winning side);
a hand with more trumps than it must show keeps the Petit hidden first (so the opponents do not
know where to hunt it), then its highest trumps (so they cannot count its masters), and shows
the middle. A chelem is announced only when it is certain.

**Two players with the dummy.** It bids on its own hand like a player of three, a little more
carefully (the defence sees the dummy and plays two hands together). It plays each card as the
three hands at the table see it (:func:`seat_view`): asked for the dummy's seat, it plays the
dummy's hand with the dummy's seat as its own, the defender's hand as a partner's whose cards
it knows; for its own seat, the dummy's hand once shown is known to be where it is.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

from arena.games.french_tarot import (
    ANNOUNCE_CHELEM,
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
    TableOptions,
    Trick,
)
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    CAVALIER,
    EXCUSE,
    FULL_DECK,
    HALF_POINTS,
    JACK,
    KING,
    KINGS_MASK,
    MONDE,
    PETIT,
    QUEEN,
    SUIT_MASKS,
    TRUMP_MASK,
    cards_of,
    is_bout,
    is_trump,
    mask_of,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, DUMMY, HAND_SIZES
from arena.games.french_tarot.tricks import TRUMPS, beats, exclusions, higher_cards, trick_suit
from clients.sdk import Bot, DecisionRequest, TableView

SAFE = 0.8
"""Chance of winning from which a trick counts as safe (for the Excuse and the poignée)."""


# ------------------------------------------------------------------------------- bidding
BID_THRESHOLDS = {
    # players: (petite, garde, garde sans, garde contre), in points of :func:`hand_points`.
    # Calibrated on self-play (the first speaker forced to take, 1500-2000 deals per count): a
    # Garde breaks even near 46 points with 4 players, 42 with 3 and 37 with 5 (the partner
    # helps). A Petite pays half a Garde either way, so it only covers a narrow band just below;
    # without seeing the chien a Garde Sans beat the Garde only above about 70 with 4 players.
    # Two players (with the dummy) take the three-player thresholds three points higher: the
    # same hand of 24 against two hands, but the defence sees the dummy and plays both.
    2: (43, 46, 71, 83),
    3: (40, 43, 68, 80),
    4: (44, 47, 72, 84),
    5: (35, 38, 64, 76),
}


def hand_points(hand: Iterable[Card], players: int) -> float:
    """The classic club count of a hand, scaled to a 4-player hand (18 cards)."""
    cards = list(hand)
    mask = mask_of(cards)
    trumps = [c for c in cards if is_trump(c)]
    t = len(trumps)
    pts = 2.0 * t + sum(1 for c in trumps if c - 55 >= 16)
    if MONDE in trumps:
        pts += 10
    if mask >> EXCUSE & 1:
        pts += 8
    if PETIT in trumps:
        pts += {5: 5, 6: 7}.get(t, 0 if t < 5 else 9)
    for s in range(4):
        mine = [c for c in cards if c // 14 == s and c < 56]
        ranks = {c % 14 for c in mine}
        if KING in ranks:
            pts += 10 if QUEEN in ranks else 6
        elif QUEEN in ranks:
            pts += 3
        if CAVALIER in ranks:
            pts += 2
        if JACK in ranks:
            pts += 1
        n = len(mine)
        pts += {0: 6, 1: 3, 5: 5, 6: 7}.get(n, 9 if n >= 7 else 0)
    return pts * 18 / HAND_SIZES[players] if players != 4 else pts


def wanted_contract(hand: Sequence[Card], players: int) -> Contract | None:
    """The contract this hand is worth, or None to pass."""
    trumps = sum(1 for c in hand if is_trump(c))
    bouts = sum(1 for c in hand if is_bout(c))
    pts = hand_points(hand, players)
    petite, garde, sans, contre = BID_THRESHOLDS[players]
    scale = HAND_SIZES[players] / 18
    if trumps < 5 * scale and bouts == 0:
        return None
    if pts >= contre:
        return Contract.GARDE_CONTRE
    if pts >= sans:
        return Contract.GARDE_SANS
    if pts >= garde:
        return Contract.GARDE
    if pts >= petite or (trumps >= 8 * scale and bouts >= 1):
        return Contract.PETITE
    return None


# ------------------------------------------------------------------------- card counting
@dataclass(frozen=True, slots=True)
class History:
    """What the finished tricks of a deal show, for every seat: the same for every seat's
    decision until the current trick ends.

    Why apart from :class:`Knowledge`: the card search asks the heuristic for the replies to
    each card it tries in each deal it draws (:mod:`clients.search_reply`), every time after the
    same finished tricks; read once per decision, they are not read again in every reply.
    """

    tricks: int
    """How many finished tricks it was read from (a check that it fits the view it is given
    with)."""
    taker: int | None
    """The taker's seat it counted :attr:`taker_followed` for."""
    voids: tuple[int, ...]
    """Per seat, the suits shown void (bits 0..3, and :data:`TRUMPS` for trumps)."""
    caps: tuple[int, ...]
    """Per seat, the exclusive upper bound of the trumps it may still hold."""
    counts: tuple[int, ...]
    """Per seat, the cards it played."""
    played: int
    """The cards played, a mask."""
    taker_followed: int
    """The suits the taker played a card of (bits 0..3)."""

    @classmethod
    def of(cls, tricks: Sequence[Trick], players: int, taker: int | None) -> History:
        """What ``tricks`` show, at a table of ``players`` where ``taker`` takes."""
        voids = [0] * players
        caps = [EXCUSE] * players
        counts = [0] * players
        played = followed = 0
        for trick in tricks:
            cards, suits = _read_plays(trick.played_by(), taker, voids, caps, counts)
            played |= cards
            followed |= suits
        return cls(len(tricks), taker, tuple(voids), tuple(caps), tuple(counts), played,
                   followed)


def _read_plays(
    plays: Sequence[tuple[int, Card]], taker: int | None,
    voids: list[int], caps: list[int], counts: list[int],
) -> tuple[int, int]:
    """One trick's plays read into each seat's voids, trump ceiling and count of cards played
    (in place): the cards played (a mask) and the suits the taker played (bits 0..3). A
    finished trick is read once per decision (:class:`History`), the current one at each."""
    _infer(plays, voids, caps)
    played = followed = 0
    for seat, card in plays:
        played |= 1 << card
        counts[seat] += 1
        if seat == taker and card < 56:
            followed |= 1 << (card // 14)
    return played, followed


_SUIT_VOIDS = tuple(
    sum(SUIT_MASKS[suit] for suit in range(4) if voids >> suit & 1) for voids in range(16)
)
"""The cards of the suits of each set of voids (bits 0..3): a seat's excluded suit cards
looked up at once rather than suit by suit."""


class Knowledge:
    """What one seat can work out about where the unseen cards are, for one play decision.

    Each unseen card gets a probability of being in each other hand: 1 where it is known (the
    chien's Kings, bouts and trumps are in the taker's hand; a poignée's trumps in its owner's),
    else shared among the hands that may hold it (not void in its suit, not shown unable to
    overtrump it) and the hidden cards (a chien nobody saw, or the taker's discard, which holds
    no King, bout or trump), in proportion to their unknown cards.

    The probabilities are worked out once per class of cards that no seat, and not the hidden
    cards, tells apart (the same seats may hold them, or know them held): a handful of classes
    where there are up to 60 cards. Each card's chances are still exactly what a computation
    card by card gives (tests/clients/test_heuristic_knowledge.py), so that the heuristic's
    choices do not move.
    """

    __slots__ = (
        "_any", "_voids", "contract", "foes", "friends", "hand", "known", "loc", "n",
        "partner_known", "played", "remaining", "seat", "taker", "taker_followed", "unseen",
        "voids",
    )

    def __init__(
        self, view: TableView, shown: Mapping[int, Sequence[Card]] | None = None,
        history: History | None = None,
    ) -> None:
        """``shown``: hands this seat sees besides its own (with the dummy: the dummy's, or the
        defender's own when it plays the dummy), by seat. ``history``: what the view's finished
        tricks show, when the caller has it already (:class:`History`; read from the view when
        it is not given, or was read from another number of tricks)."""
        seen = view.observation  # its fields directly: this runs at every decision
        n = self.n = seen.options.players
        me = self.seat = view.seat
        taker = self.taker = seen.taker
        contract = self.contract = seen.contract
        hand = self.hand = mask_of(seen.hand)
        tricks = seen.tricks
        if history is None or history.tricks != len(tricks) or history.taker != taker:
            history = History.of(tricks, n, taker)
        voids = list(history.voids)
        caps = list(history.caps)  # exclusive upper bound of the trumps a seat may still hold
        counts = list(history.counts)
        played = history.played
        followed = history.taker_followed
        current = seen.current_trick
        if current:
            cards, suits = _read_plays(current, taker, voids, caps, counts)
            played |= cards
            followed |= suits
        self.played = played
        self.taker_followed = followed
        out = mask_of(seen.discarded_trumps)
        if taker is not None and taker == me:  # view.is_taker and view.discard, inline
            out |= mask_of(seen.discard or ())
        unseen = self.unseen = FULL_DECK & ~hand & ~played & ~out
        size = HAND_SIZES[n]
        remaining = self.remaining = [size - counts[s] for s in range(n)]
        remaining[me] = len(seen.hand)
        known = [0] * n
        chien_shown = contract is not None and contract.chien_shown
        if taker is not None and taker != me and chien_shown and seen.chien is not None:
            known[taker] |= mask_of(seen.chien) & (TRUMP_MASK | (1 << EXCUSE) | KINGS_MASK)
        for poignee in seen.poignees:
            if poignee.seat != me:
                known[poignee.seat] |= mask_of(poignee.cards)
        for seat, cards in (shown or {}).items():
            known[seat] |= mask_of(cards)
        any_known = 0
        for s in range(n):
            known[s] &= unseen
            any_known |= known[s]
        self.known = known
        self.voids = voids
        others = [s for s in range(n) if s != me]
        slots = [max(0, remaining[s] - known[s].bit_count()) for s in range(n)]
        hidden = max(0, unseen.bit_count() - sum(remaining[s] for s in others))
        hidden_excludes = 0
        if hidden and chien_shown and taker != me:
            hidden_excludes = TRUMP_MASK | (1 << EXCUSE) | KINGS_MASK | BOUTS_MASK
        excluded = [
            TRUMP_MASK & ~((1 << caps[s]) - 1) | _SUIT_VOIDS[voids[s] & 15] for s in others
        ]
        loc: dict[Card, tuple[float, ...]] = {}
        zero = (0.0,) * n
        # The cards no seat knows held, split by who may hold them: each class's chances are
        # one card's. The weights are summed seat by seat as a card's would be, so the floats
        # are the same to the last bit.
        classes = [unseen & ~any_known]
        for mask in (*excluded, hidden_excludes):
            if mask:
                classes = [part for whole in classes
                           for part in (whole & mask, whole & ~mask) if part]
        for members in classes:
            if not members:
                continue
            bit = members & -members
            weights: list[float] = [0.0] * n
            total = 0.0
            for s, mask in zip(others, excluded, strict=True):
                if not mask & bit:
                    weights[s] = slots[s]
                    total += slots[s]
            if hidden and not hidden_excludes & bit:
                total += hidden
            chances = tuple([w / total for w in weights]) if total else zero
            loc.update(dict.fromkeys(cards_of(members), chances))
        if any_known:
            for card in cards_of(any_known):
                bit = 1 << card
                loc[card] = tuple([1.0 if known[s] & bit else 0.0 for s in range(n)])
        self.loc = loc
        self._any: dict[tuple[int, int], float] = {}
        self._voids: dict[tuple[int, int], float] = {}
        self.friends, self.foes, self.partner_known = _sides(view, self)

    def holds_any(self, seat: int, cards: int) -> float:
        """The chance that ``seat`` holds at least one of ``cards`` now."""
        cards &= self.unseen
        if not cards:
            return 0.0
        key = (seat, cards)
        p = self._any.get(key)
        if p is None:
            none = 1.0
            loc = self.loc
            for card in cards_of(cards):
                none *= 1.0 - loc[card][seat]
            p = self._any[key] = 1.0 - none
        return p

    def none_among(self, cards: int, seats: Sequence[int]) -> float:
        """The chance that none of ``seats`` holds any of ``cards``."""
        p = 1.0
        loc = self.loc
        for card in cards_of(cards & self.unseen):
            where = loc[card]
            p *= max(0.0, 1.0 - sum(where[s] for s in seats))
        return p

    def void_chance(self, seat: int, suit: int) -> float:
        """The chance that ``seat`` holds no card of ``suit`` (0..3). The taker is thought
        likelier void in a suit it has not played yet: it discarded to make voids."""
        key = (seat, suit)
        p = self._voids.get(key)
        if p is None:
            p = 1.0 - self.holds_any(seat, SUIT_MASKS[suit])
            if (0.0 < p < 1.0 and seat == self.taker and self.contract is not None
                    and not self.taker_followed >> suit & 1):
                prior = 0.35 if self.contract.chien_shown else 0.2
                p = prior + (1.0 - prior) * p
            self._voids[key] = p
        return p

    def hold_chance(self, best: Card, led: int, later: Sequence[int]) -> float:
        """The chance that ``best`` still wins once the ``later`` seats have played. Only
        opponents, and seats whose side is not known, are assumed to try to beat it."""
        foes = [s for s in later if s not in self.friends]
        if not foes:
            return 1.0
        if best >= 56:
            higher = higher_cards(best)
            if led == TRUMPS:
                return self.none_among(higher, foes)
            p = 1.0
            for seat in foes:
                p *= 1.0 - self.void_chance(seat, led) * self.holds_any(seat, higher)
            return p
        p = self.none_among(higher_cards(best), foes)
        for seat in foes:
            p *= 1.0 - self.void_chance(seat, led) * self.holds_any(seat, TRUMP_MASK)
        return p

    def foe_trump_chance(self) -> float:
        """The chance that some opponent (or seat of unknown side) still holds a trump."""
        p = 1.0
        for seat in range(self.n):
            if seat == self.seat or seat in self.friends:
                continue
            p *= 1.0 - self.holds_any(seat, TRUMP_MASK)
        return 1.0 - p

    def is_master(self, card: Card) -> bool:
        """No card of its suit (or trump) above it is still out."""
        return not higher_cards(card) & self.unseen


_SUIT_CARDS = (1 << 56) - 1


def _infer(plays: Sequence[tuple[int, Card]], voids: list[int], caps: list[int]) -> None:
    """Voids and trump ceilings shown by one trick's cards, given the rules of following."""
    for seat, shown in exclusions(plays):
        if shown & _SUIT_CARDS:  # whole suits: their lowest cards (0, 14, 28, 42) say which
            voids[seat] |= (shown & 1 | shown >> 13 & 2 | shown >> 26 & 4 | shown >> 39 & 8)
        trumps = shown & TRUMP_MASK
        if trumps:  # no trump from the lowest one shown on
            low = (trumps & -trumps).bit_length() - 1
            if low < caps[seat]:
                caps[seat] = low
    for seat in range(len(caps)):
        if caps[seat] <= 56:
            voids[seat] |= 1 << TRUMPS


def _sides(view: TableView, know: Knowledge) -> tuple[frozenset[int], frozenset[int], bool]:
    """(friends including this seat, known opponents, whether the sides are known). With 5
    players, a seat whose side is not known yet is in neither."""
    me, n, taker = view.seat, view.options.players, view.taker
    if taker is None:
        return _side_sets(n, me, None, None, True)
    partner: int | None = None
    partner_known = n < 5
    if n == 5:
        called = view.called_card
        if called is None:
            partner_known = True
        elif know.hand >> called & 1:
            partner, partner_known = (None if me == taker else me), True
        elif (view.chien is not None and called in view.chien) or (
            view.is_taker and called in view.discard
        ):
            partner_known = True  # the taker plays alone
        else:
            for trick in view.tricks:
                for seat, card in trick.played_by():
                    if card == called:
                        partner, partner_known = (None if seat == taker else seat), True
            for seat, card in view.current_trick:
                if card == called:
                    partner, partner_known = (None if seat == taker else seat), True
    return _side_sets(n, me, taker, partner, partner_known)


@cache
def _side_sets(
    n: int, me: int, taker: int | None, partner: int | None, partner_known: bool
) -> tuple[frozenset[int], frozenset[int], bool]:
    """:func:`_sides` once the taker's partner is worked out: a few dozen answers in all,
    kept, since every reply of the card search asks again."""
    everyone = frozenset(range(n))
    if taker is None:
        return frozenset({me}), everyone - {me}, True
    attack = frozenset({taker} if partner is None else {taker, partner})
    if me in attack:
        friends = attack
        foes = everyone - attack if partner_known else frozenset()
    elif partner_known:
        friends, foes = everyone - attack, attack
    else:
        friends, foes = frozenset({me}), frozenset({taker})
    return friends, foes, partner_known


# ---------------------------------------------------------------------------- the player
@dataclass(frozen=True, slots=True)
class _Trick:
    """The trick as it stands for the seat to play."""

    led: int
    """Suit led (0..3, 4 for trumps), -1 when nothing but perhaps the Excuse was played."""
    best: Card
    winner: int
    points: int
    """Half-points in the trick so far (the Excuse counts as the half-point given for it)."""
    later: tuple[int, ...]
    """Seats still to play after this one, in order."""


def _trick_of(view: TableView) -> _Trick:
    n = view.options.players
    led, best, winner, points = -1, -1, -1, 0
    for seat, card in view.current_trick:
        if card == EXCUSE:
            points += 1
            continue
        points += HALF_POINTS[card]
        if led < 0:
            led, best, winner = trick_suit(card), card, seat
        elif beats(card, best, led):
            best, winner = card, seat
    to_come = n - len(view.current_trick) - 1
    later = tuple((view.seat + i) % n for i in range(1, to_come + 1))
    return _Trick(led, best, winner, points, later)


class HeuristicBot(Bot):
    """A sensible club player; see the module docstring for how it decides."""

    name = "heuristic"
    version = "1"
    threaded = False  # a decision costs far less than a thread hop

    # ------------------------------------------------------------------------ bidding
    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        wanted = wanted_contract(table.hand, table.options.players)
        if wanted is None:
            return PASS
        # The highest contract it wants that is still open (the beginner variant stops at the
        # Garde); none when somebody bid as high already: let them play it.
        bids = [a for a in request.legal_actions if isinstance(a, Bid) and a.contract <= wanted]
        return max(bids, key=lambda a: a.contract) if bids else PASS

    # ------------------------------------------------------------------------ calling
    def call(self, table: TableView, request: DecisionRequest) -> Action:
        options = [a.card for a in request.legal_actions if isinstance(a, CallCard)]
        return CallCard(call_choice(table.hand, options))

    # ----------------------------------------------------------------------- discarding
    def discard(self, table: TableView, request: DecisionRequest) -> Action:
        legal = {a.card for a in request.legal_actions if isinstance(a, Discard)}
        left = CHIEN_SIZES[table.options.players] - len(table.discard)
        for card in discard_plan(table.hand, legal, left, table.called_card):
            return Discard(card)
        return request.legal_actions[0]  # pragma: no cover - the plan is never empty

    # --------------------------------------------------------------------------- chelem
    def chelem(self, table: TableView, request: DecisionRequest) -> Action:
        if ANNOUNCE_CHELEM in request.legal_actions and sure_chelem(table):
            return ANNOUNCE_CHELEM
        return NO_CHELEM

    # ----------------------------------------------------------------------------- play
    def play(self, table: TableView, request: DecisionRequest) -> Action:
        legal = request.legal_actions
        plays = [a.card for a in legal if isinstance(a, Play)]
        poignees = [a for a in legal if isinstance(a, DeclarePoignee)]
        if poignees and self.show_poignee(table):
            return max(poignees, key=lambda a: a.level)
        if len(plays) == 1:
            return Play(plays[0])
        if table.options.has_dummy:
            view, shown = seat_view(table, request)
            return Play(choose_card(view, plays, shown))
        return Play(choose_card(table, plays))

    def show_poignee(self, table: TableView) -> bool:
        """The bonus goes to the winning side: show it when one's side is likely to win."""
        contract = table.contract
        if contract is None or table.taker is None:
            return False
        if table.is_taker:
            return True
        if table.called_card is not None and table.called_card in table.hand:
            return True  # the taker's secret partner
        return contract <= Contract.GARDE

    def hide(self, table: TableView, request: DecisionRequest) -> Action:
        choosable = [a.card for a in request.legal_actions if isinstance(a, HideTrump)]
        return HideTrump(trump_to_hide(choosable))

    def decide(self, table: TableView, request: DecisionRequest) -> Action:
        return request.legal_actions[0]  # pragma: no cover - every phase has its method


def seat_view(
    table: TableView, request: DecisionRequest
) -> tuple[TableView, dict[int, tuple[Card, ...]]]:
    """Two players with the dummy, seen as the three hands at the table for the seat to act:
    that seat's view (the dummy's, with the dummy's hand, when the defender is asked for it) at
    a table of three, and the other hands this player sees: the dummy's once shown, or its own
    when it plays the dummy. The sides are then the three-player ones: the taker alone against
    the defender and the dummy."""
    observation = table.observation
    seat = request.seat
    shown: dict[int, tuple[Card, ...]] = {}
    if seat != table.seat:
        shown[table.seat] = observation.hand
    elif observation.dummy is not None:
        shown[DUMMY] = observation.dummy
    options = observation.options
    three = TableOptions(3, options.beginner, options.direction)
    seen = replace(
        observation, seat=seat, hand=tuple(sorted(request.hand)), options=three, dummy=None
    )
    return replace(table, seat=seat, observation=seen), shown


def trump_to_hide(choosable: Sequence[Card]) -> Card:
    """The next trump to keep out of a poignée: the Petit (a shown Petit tells the opponents
    whom to hunt), then the highest (a shown master tells them what to fear and count)."""
    return PETIT if PETIT in choosable else max(choosable)


def call_choice(hand: Sequence[Card], options: Sequence[Card]) -> Card:
    """The card to call among ``options``: a King the hand lacks, preferably in a suit where it
    holds the Queen or the Cavalier, else in its shortest suit; itself only when forced."""
    held = mask_of(hand)

    def score(card: Card) -> tuple[int, int, int]:
        if held >> card & 1:
            return (-100, 0, -card)  # calling oneself: playing alone
        suit = card // 14
        mine = [c for c in hand if c < 56 and c // 14 == suit]
        ranks = {c % 14 for c in mine}
        honours = 4 * (QUEEN in ranks and card % 14 == KING) + 2 * (CAVALIER in ranks)
        shortness = {0: 2, 1: 3, 2: 2, 3: 1}.get(len(mine), 0)
        return (honours + shortness, -len(mine), -card)

    return max(options, key=score)


def discard_plan(
    hand: Sequence[Card], legal: set[Card], count: int, called: Card | None = None
) -> list[Card]:
    """``count`` cards to discard from ``hand``, best first (all in ``legal``)."""
    plain = sorted(c for c in legal if c < 56)
    if len(plain) < count:  # trumps must go too: the lowest (never a bout, the rules say)
        trumps = sorted(c for c in legal if c >= 56)
        return plain + trumps[: count - len(plain)]
    by_suit: dict[int, list[Card]] = {}
    for c in hand:
        if c < 56:
            by_suit.setdefault(c // 14, []).append(c)
    called_suit = called // 14 if called is not None and called < 56 else -1
    voidable = [
        s for s, cards in by_suit.items()
        if s != called_suit and all(c in legal for c in cards)  # no King in it
    ]
    voidable.sort(key=lambda s: (len(by_suit[s]), sum(HALF_POINTS[c] for c in by_suit[s]), s))
    plan: list[Card] = []
    slots = count
    for s in voidable:
        if len(by_suit[s]) <= slots:
            plan.extend(sorted(by_suit[s]))
            slots -= len(by_suit[s])
    if slots:
        rest = [c for c in plain if c not in plan]

        def key(card: Card) -> tuple[int, int, int, int]:
            suit = card // 14
            return (HALF_POINTS[card] > 1, suit == called_suit, len(by_suit[suit]), card % 14)

        rest.sort(key=key)
        plan.extend(rest[:slots])
    return plan


def sure_chelem(table: TableView) -> bool:
    """Certain to take every trick leading first: no opponent trump, and in each suit the hand
    holds the top cards of what is still out; the Excuse, if held, is led last."""
    hand = mask_of(table.hand)
    gone = mask_of(table.discard)
    if (TRUMP_MASK & ~hand & ~gone) != 0:
        return False
    for suit in range(4):
        mine = hand & SUIT_MASKS[suit]
        if not mine:
            continue
        out = SUIT_MASKS[suit] & ~gone & ~hand
        lowest_mine = (mine & -mine).bit_length() - 1
        if out & ~((1 << lowest_mine) - 1):
            return False  # a card still out above one of ours
    return True


# ------------------------------------------------------------------------ card choice
def choose_card(
    view: TableView, plays: Sequence[Card], shown: Mapping[int, Sequence[Card]] | None = None,
    history: History | None = None,
) -> Card:
    """The card to play among ``plays`` (at least two legal cards); ``shown`` and ``history``
    as for :class:`Knowledge`.

    Values are in half-points of (our side's points - the other side's), so that a card played
    into a lost trick costs twice its points.
    """
    know = Knowledge(view, shown, history)
    trick = _trick_of(view)
    hand_left = len(view.hand)
    chelem_lead = view.chelem_announced and view.is_taker
    if EXCUSE in plays and hand_left <= 2 and not chelem_lead:
        return EXCUSE  # never keep the Excuse to the last trick: it would change sides
    cards = [c for c in plays if c != EXCUSE]
    values = _Values(view, know)
    if trick.led < 0:
        if EXCUSE in plays and not chelem_lead and _lead_excuse(view, cards, values):
            return EXCUSE
        return _choose_lead(view, know, trick, cards, values)
    value, _, card = max((_follow_value(know, trick, c, values), -c, c) for c in cards)
    if EXCUSE in plays and not chelem_lead:
        side_wins = trick.winner in know.friends
        q = know.hold_chance(trick.best, trick.led, trick.later) if side_wins else 0.0
        excuse = (2 * q - 1) * (trick.points + _later_points(know, trick.later, q))
        if excuse - values.excuse_keep(hand_left) > value:
            return EXCUSE
    return card


def _later_points(know: Knowledge, later: Sequence[int], p: float) -> float:
    """Half-points the seats still to play are expected to add: a low card each, and more from
    the side that is winning (it charges)."""
    total = 0.0
    for seat in later:
        if seat in know.friends:
            total += 1.0 + 2.0 * p
        elif seat in know.foes:
            total += 1.0 + 2.0 * (1.0 - p)
        else:
            total += 2.0
    return total


class _Values:
    """What each card is worth kept in hand for later, for this decision, in half-points of
    (ours - theirs): a low card nothing, a master card its likely trick, a trump its rank, the 21
    its points plus its rank, the Petit what is at stake given who holds the trumps."""

    def __init__(self, view: TableView, know: Knowledge) -> None:
        self.know = know
        n = view.options.players
        self.hand_size = HAND_SIZES[n]
        mine = self.mine_trumps = (know.hand & TRUMP_MASK).bit_count()
        friend_trumps = 0
        for seat in know.friends:
            if seat != know.seat:
                friend_trumps |= know.known[seat] & TRUMP_MASK
        out = self.out_trumps = (know.unseen & TRUMP_MASK & ~friend_trumps).bit_count()
        self.foe_trumps = know.foe_trump_chance()
        if self.foe_trumps == 0.0:
            self.petit = 40.0  # it cannot be taken any more: keep it for the last trick
        else:
            saved = 0.35 + 0.5 * mine / (mine + out) if mine + out else 1.0
            if len(know.friends) > 1:
                saved += 0.1  # partners' tricks to save it on
            saved = min(0.9, max(0.45, saved))
            self.petit = 9.0 * (2 * saved - 1) + 3.0
        self._survive: dict[int, float] = {}

    def survive(self, suit: int) -> float:
        """The chance that a master card of ``suit`` led later is not trumped."""
        p = self._survive.get(suit)
        if p is None:
            know = self.know
            p = 1.0
            for seat in range(know.n):
                if seat == know.seat or seat in know.friends:
                    continue
                p *= 1.0 - know.void_chance(seat, suit) * know.holds_any(seat, TRUMP_MASK)
            self._survive[suit] = p
        return p

    def keep(self, card: Card) -> float:
        if card >= 56:
            if card == MONDE:
                return 9.0 + 12.4
            if card == PETIT:
                return self.petit
            return 0.4 * (card - 55)
        if self.know.is_master(card):
            r = self.survive(card // 14)
            if r > 0.5:  # it should take a trick later, if the suit comes round again
                return 0.7 * (HALF_POINTS[card] + self.know.n - 1) * (2 * r - 1)
        return 0.01 * (card % 14)

    def excuse_keep(self, hand_left: int) -> float:
        """What the Excuse is worth kept for a later trick (little once it must go soon)."""
        return 1.0 + 6.0 * max(0, hand_left - 2) / self.hand_size


def _rescue(know: Knowledge, later: Sequence[int]) -> float:
    """A rough chance that a partner still to play takes a trick the opponents are winning."""
    if not later:
        return 0.0
    friends = sum(1.0 if s in know.friends else 0.0 if s in know.foes else 0.6 for s in later)
    return 0.4 * friends / len(later)


def _follow_value(know: Knowledge, trick: _Trick, card: Card, values: _Values) -> float:
    """(ours - theirs) expected from playing ``card`` to the trick, minus its value kept."""
    if beats(card, trick.best, trick.led):
        p = know.hold_chance(card, trick.led, trick.later)
    elif trick.winner in know.friends:
        p = know.hold_chance(trick.best, trick.led, trick.later)
    else:
        p = 0.0
    pot = trick.points + HALF_POINTS[card] + _later_points(know, trick.later, p)
    return (2 * p - 1) * pot - values.keep(card)


def _choose_lead(
    view: TableView, know: Knowledge, trick: _Trick, cards: Sequence[Card], values: _Values
) -> Card:
    """The card to lead (``cards`` are legal and never the Excuse)."""
    n = view.options.players
    later = trick.later
    me = view.seat
    taker_side = view.taker is not None and view.taker in know.friends
    drawing = taker_side and values.foe_trumps > 0.05 and (
        values.mine_trumps >= 2 * values.out_trumps
    )
    hunting = taker_side and bool(know.unseen >> PETIT & 1) and values.foe_trumps > 0.05
    called = view.called_card
    find_partner = n == 5 and called is not None and not know.partner_known and called < 56
    lengths = [(know.hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    taker_voids = know.voids[view.taker] if view.taker is not None and not taker_side else 0
    best_key: tuple[float, int] | None = None
    choice = cards[0]
    for card in cards:
        suit = trick_suit(card)
        pts = HALF_POINTS[card]
        p = know.hold_chance(card, suit, later)
        p += (1.0 - p) * _rescue(know, later)
        value = (2 * p - 1) * (pts + _later_points(know, later, p)) - values.keep(card)
        if suit == TRUMPS:
            if taker_side and values.foe_trumps > 0.05:
                if p > 0.9 or drawing:
                    value += 4.0  # draw the opponents' trumps
                if hunting and p > 0.9:
                    value += 4.0  # ... and bring down the Petit
            elif not taker_side:
                value -= 2.0  # defenders leave the trumps to the taker
        else:
            if find_partner and suit == called // 14 and card != called and me != view.taker:
                value += 4.0  # whoever plays the called King shows the sides
            elif find_partner and suit == called // 14 and me == view.taker and pts == 1:
                value += 3.0  # the partner takes it with the King
            if taker_voids >> suit & 1 and not taker_voids >> TRUMPS & 1 and pts == 1:
                value += 2.0  # make the taker trump: it shortens its trumps
            value += 0.05 * lengths[suit]
        key = (value, -card)
        if best_key is None or key > best_key:
            best_key, choice = key, card
    return choice


def _lead_excuse(view: TableView, cards: Sequence[Card], values: _Values) -> bool:
    """Lead the Excuse only with few tricks left and nothing cheap to lead instead."""
    return len(view.hand) <= 3 and all(values.keep(c) > 3.0 for c in cards)
