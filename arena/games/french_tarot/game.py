"""The French Tarot engine: one deal, from bidding to the settlement.

``legal_actions(state)`` is the only source of legality: :func:`apply` accepts exactly the
actions it lists and raises :class:`IllegalActionError` (saying why) for anything else.

A :class:`DealState` is mutable and :func:`apply` changes it in place. That is a deliberate
choice for speed: a deal is about 80 decisions and the arena must play thousands of deals per
second, so copying the state at every step would cost more than the rules themselves. Use
:meth:`DealState.copy` to branch (search bots, tests).
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from ..base import IllegalActionError as IllegalActionError
from ..base import WrongTurnError as WrongTurnError
from ..cardsets import Holding, holding, region_tables, rejoin
from ..frozen import builder
from ..registry import OfGame
from ..tricks import Trick as Trick
from ..tricks import made_tricks, trick_records
from .actions import (
    ANNOUNCE_CHELEM,
    BIDS,
    CALLS,
    DISCARDS,
    HIDES,
    NO_CHELEM,
    PASS,
    PLAYS,
    POIGNEE_THRESHOLDS,
    POIGNEES,
    Action,
    Bid,
    CallCard,
    ChelemChoice,
    Contract,
    DeclarePoignee,
    Discard,
    HideTrump,
    Pass,
    Play,
    PoigneeLevel,
)
from .cards import (
    BOUTS_MASK,
    CAVALIER,
    DECK_SIZE,
    EXCUSE,
    EXCUSE_BIT,
    JACK,
    KING,
    KINGS_MASK,
    PETIT,
    QUEEN,
    RANK_MASKS,
    SUIT_MASKS,
    SUIT_NAMES,
    TRUMP_MASK,
    Card,
    Hand,
    card_long_name,
    card_name,
    cards_of,
    mask_half_points,
)
from .deal import (
    CHIEN_SIZES,
    DUMMY,
    HAND_SIZES,
    SEATS,
    Deal,
    first_seat,
    seeded_deal,
)
from .scoring import DealSummary, ScoreBreakdown, Side
from .scoring_core import score_terms, seat_scores
from .values import DealOutcome as DealOutcome
from .values import DealResult as DealResult
from .values import Direction as Direction
from .values import ShownPoignee as ShownPoignee
from .values import TableOptions as TableOptions


class Phase(Enum):
    BIDDING = "bidding"
    CALLING = "calling"
    DISCARDING = "discarding"
    CHELEM = "chelem"
    POIGNEE = "poignee"
    """A seat declared a poignée holding more trumps than it shows: it chooses the ones to hide
    (:class:`HideTrump`) before its first card. Only that seat sees this phase."""
    PLAYING = "playing"
    FINISHED = "finished"


_PLAYING: Final = Phase.PLAYING  # module constants: enum attribute look-ups cost on hot paths
_FINISHED: Final = Phase.FINISHED
_BIDDING: Final = Phase.BIDDING
_DISCARDING: Final = Phase.DISCARDING
_CALLING: Final = Phase.CALLING
_CHELEM: Final = Phase.CHELEM
_POIGNEE: Final = Phase.POIGNEE
_SUIT_MASKS: Final[tuple[Hand, ...]] = (
    SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3]
)
"""The suits' masks as this module's constant (an imported name is looked up at each use). A
tuple of any length to mypyc: one of four ints is a C struct, which indexing by a variable
boxes into a new tuple (four ints allocated) at every look-up."""
_SUITS_BITS: Final = (1 << 56) - 1
_TOP: Final = 56
"""A hand shifted right by this holds the trumps 1-21 as bits 0-20 and the Excuse as bit 21:
a native int of the compiled module, where the whole 78-bit hand is a big-int object; the
trump rules then cost two big-int operations (the shift, the answer) rather than one a step."""
_TOP_TRUMPS: Final = (1 << 21) - 1
_TOP_EXCUSE: Final = 1 << 21


def poignee_cards(
    hand: Hand, players: int, level: PoigneeLevel, hidden: Hand | None = None
) -> tuple[Card, ...] | None:
    """The cards shown for ``level``, descending, or None when they are not a legal handful.

    Exactly the threshold count is shown: the hand's trumps less the ``hidden`` ones, which must
    be exactly the trumps above the threshold. ``hidden`` None hides the highest (shows the
    lowest), what every poignée showed before players chose: records written then replay so.
    The Excuse stands in for one missing trump only, which tells the table the player holds no
    other trump; it is never hidden nor shown beside a full count of trumps.
    """
    need = POIGNEE_THRESHOLDS[players][level]
    trumps = hand & TRUMP_MASK
    extra = trumps.bit_count() - need
    if extra < 0:
        if extra == -1 and hand & EXCUSE_BIT and not hidden:
            return (EXCUSE, *reversed(cards_of(trumps)))
        return None
    if hidden is None:
        hidden = _highest(trumps, extra)
    if hidden & ~trumps or hidden.bit_count() != extra:
        return None
    return tuple(reversed(cards_of(trumps & ~hidden)))


def _highest(mask: Hand, count: int) -> Hand:
    """The ``count`` highest cards of ``mask``."""
    out = 0
    for _ in range(count):
        top = 1 << (mask.bit_length() - 1)
        out |= top
        mask ^= top
    return out


_LED_TRUMP: Final = 4
_NO_LEAD: Final = -1


def legal_play_mask(hand: Hand, led: int, best: Card) -> Hand:
    """Cards of ``hand`` that may be played to a trick.

    ``led`` is the led suit (0..3), 4 for trumps, -1 when nothing but perhaps the Excuse has been
    played; ``best`` the highest card so far that can win (a trump, if any, beats every suit card
    since trumps have higher ids).
    """
    if led < 0:
        return hand
    excuse = hand & EXCUSE_BIT
    if led < 4:
        follow = hand & _SUIT_MASKS[led]
        if follow:
            return follow | excuse
    trumps = hand & TRUMP_MASK
    if not trumps:
        return hand
    if best >= 56:
        higher = trumps & ~((2 << best) - 1)
        if higher:
            return higher | excuse
    return trumps | excuse


class DealState(OfGame):
    """One deal in progress. Read it through attributes; change it only with :func:`apply`."""

    __slots__ = (
        "_best",
        "_best_pos",
        "_card_kind",
        "_cards_suits",
        "_cards_top",
        "_excuse_trick",
        "_held",
        "_joined",
        "_led",
        "_legal",
        "_stale",
        "_taker_tricks",
        "_trick_cards",
        "_trick_ends",
        "_trick_suits",
        "_trick_top",
        "_tricks",
        "_won_suits",
        "_won_top",
        "bids",
        "called_card",
        "chelem_announced",
        "contract",
        "deal",
        "discard",
        "discarded_trumps",
        "dummy_seat",
        "first_seat",
        "history",
        "options",
        "partner",
        "partner_revealed",
        "phase",
        "players",
        "poignee_done",
        "poignee_hidden",
        "poignee_level",
        "poignees",
        "result",
        "seats",
        "taker",
        "to_act",
        "trick",
        "trick_leader",
    )

    options: TableOptions
    deal: Deal
    players: int
    """The number of players: with two, the table has a third hand, the dummy's."""
    seats: int
    """The hands at the table, in turn order ``0 .. seats - 1``: ``players``, plus the dummy."""
    dummy_seat: int | None
    """The dummy's seat with two players (:data:`~.deal.DUMMY`), None otherwise."""
    first_seat: int
    """The seat after the dealer: speaks first and, without a chelem, leads first."""
    phase: Phase
    to_act: int | None
    history: list[tuple[int, Action]]
    bids: list[tuple[int, Action]]
    contract: Contract | None
    taker: int | None
    called_card: Card | None
    partner: int | None
    partner_revealed: bool
    discard: Hand
    discarded_trumps: list[Card]
    chelem_announced: bool
    poignees: list[ShownPoignee]
    poignee_done: int
    poignee_level: PoigneeLevel | None
    """The level being shown while its player chooses the trumps to hide (Phase.POIGNEE)."""
    poignee_hidden: Hand
    """The trumps that player has hidden so far."""
    _tricks: list[Trick]
    """The finished tricks made :class:`Trick` objects so far, for :attr:`tricks`."""
    _trick_cards: list[list[Card]]
    """Each finished trick's cards in play order: the list the trick was played into, kept."""
    _trick_ends: list[int]
    """Each finished trick's leader and winner, ``leader << 3 | winner``."""
    trick: list[Card]
    trick_leader: int
    result: DealResult | None
    _led: int
    _best: Card
    _best_pos: int
    _legal: tuple[Action, ...] | None
    _card_kind: type | None
    _cards_suits: int
    _cards_top: int
    """The cards of ``_legal``'s actions of class ``_card_kind`` (the plays, discards, calls or
    hides of the phase; valid while ``_legal`` is), in two native halves (see _TOP):
    :func:`apply` checks such an action against them rather than looking for it in the list,
    comparing it with each action before it. Halves, not a mask: the plays' were joined into
    a 78-bit big int at every card only for that test."""
    _held: list[Holding]
    """Each seat's cards, in two native halves: what the rules read and change."""
    _joined: list[Hand]
    """``hands`` as last joined, up to date but for the seats in ``_stale``."""
    _stale: int
    """The seats (bit ``s`` for seat ``s``) whose cards changed since ``_joined`` was."""
    _trick_suits: int
    _trick_top: int
    """The cards of the trick in progress but the Excuse, in two native halves (see _TOP)."""
    _won_suits: int
    _won_top: int
    """The cards of the tricks the taker's side won but the Excuse (see _TOP): the deal's
    count (:func:`summarize`) gathered a trick at a time, not card by card at the end."""
    _taker_tricks: int
    """The tricks the taker's side won."""
    _excuse_trick: int
    """The index of the trick the Excuse was played to, -1 before."""

    def __new__(cls, *args: object, **kwargs: object) -> DealState:
        """Allocation alone, as for any Python class: :func:`copy_state` fills a new state
        without dealing. Spelled out for the compiled engine, whose classes otherwise run
        ``__init__`` from ``__new__``."""
        return super().__new__(cls)

    def __init__(self, deal: Deal, options: TableOptions | None = None) -> None:
        options = options or TableOptions(players=deal.players)
        if options.players != deal.players:
            raise ValueError(
                f"a {deal.players}-player deal cannot be played at a {options.players}-player table"
            )
        self.options = options
        self.deal = deal
        self.players = deal.players
        self.seats = SEATS[deal.players]
        self.dummy_seat = DUMMY if self.seats > self.players else None  # options.has_dummy
        self.first_seat = first_seat(deal.players, deal.dealer)
        self._held = [holding(hand) for hand in deal.hand_masks]
        self._joined = list(deal.hand_masks)
        self._stale = 0
        self.history = []
        self.bids = []
        self.contract = None
        self.taker = None
        self.called_card = None
        self.partner = None
        self.partner_revealed = False
        self.discard = 0
        self.discarded_trumps = []
        self.chelem_announced = False
        self.poignees = []
        # a set bit: that seat may no longer show a poignée (the dummy never shows one)
        self.poignee_done = (1 << self.seats) - 1 if options.beginner else 0
        if self.dummy_seat is not None:
            self.poignee_done |= 1 << self.dummy_seat
        self.poignee_level = None
        self.poignee_hidden = 0
        self._tricks = []
        self._trick_cards = []
        self._trick_ends = []
        self.trick = []
        self.trick_leader = self.first_seat
        self._trick_suits = 0
        self._trick_top = 0
        self._won_suits = 0
        self._won_top = 0
        self._taker_tricks = 0
        self._excuse_trick = -1
        self.result = None
        self._led = _NO_LEAD
        self._best = -1
        self._best_pos = 0
        self._legal = None
        self._card_kind = None
        self._cards_suits = 0
        self._cards_top = 0
        self.phase = _BIDDING
        self.to_act = self.first_seat
        for seat, held in enumerate(self._held):
            if held.trumps == 1:  # is_petit_sec: the Petit its only trump, and no Excuse
                self.result = DealResult(
                    DealOutcome.PETIT_SEC, (0,) * self.players, petit_sec_seat=seat
                )
                self.phase = Phase.FINISHED
                self.to_act = None
                break

    @classmethod
    def from_seed(
        cls, seed: int, options: TableOptions | None = None, dealer: int | None = None
    ) -> DealState:
        """The deal of ``seed``; ``dealer`` None: the first seat that may deal (seat 0; with the
        dummy, seat 1)."""
        options = options or TableOptions()
        return cls(seeded_deal(seed, options.players, dealer), options)

    @property
    def hands(self) -> list[Hand]:
        """Each seat's cards now, as masks (a new list). The rules keep them in two native
        halves a seat (:class:`~arena.games.cardsets.Holding`): joined here for a reader, a
        changed seat's once."""
        if self._stale:
            rejoin(self._held, self._joined, self._stale)
            self._stale = 0
        return self._joined.copy()

    @hands.setter
    def hands(self, hands: list[Hand]) -> None:
        self._held = [holding(hand) for hand in hands]
        self._joined = list(hands)
        self._stale = 0

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order (the state's own list: read it, do not change it),
        each made only when read (:func:`~arena.games.tricks.made_tricks`)."""
        return made_tricks(self._tricks, self._trick_cards, self._trick_ends)

    @tricks.setter
    def tricks(self, tricks: list[Trick]) -> None:
        """Finished tricks set by hand (a position built for a test or an analysis)."""
        self._tricks, self._trick_cards, self._trick_ends = trick_records(tricks)

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def defender(self) -> int | None:
        """With the dummy, the player who is not the taker, once there is a taker."""
        if self.dummy_seat is None or self.taker is None:
            return None
        return 1 - self.taker

    def controller(self, seat: int) -> int | None:
        """The player who decides for ``seat``: the seat itself, except the dummy's, which the
        defender plays (None before a player has taken, and for good if both passed).

        An arena asks this player's bot, counts the time against it, and charges it with an
        infraction made in the dummy's turn."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is not a seat of this table (0 .. {self.seats - 1})")
        if seat == self.dummy_seat:
            return self.defender
        return seat

    @property
    def decider(self) -> int | None:
        """The player who decides now: :meth:`controller` of the seat to act; None once over."""
        seat = self.to_act
        if seat is None or seat != self.dummy_seat:
            return seat
        return self.defender

    @property
    def dummy_shown(self) -> bool:
        """With the dummy: whether its hand is shown to both players. It is from the end of
        the discard (right after bidding for Garde Sans and Garde Contre) to the end of the
        deal; a deal both players passed never shows it."""
        return (
            self.dummy_seat is not None
            and self.taker is not None
            and self.phase is not Phase.BIDDING
            and self.phase is not Phase.DISCARDING
        )

    @property
    def chien(self) -> Hand:
        return self.deal.chien_mask

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        n = self.seats
        return tuple(((self.trick_leader + i) % n, c) for i, c in enumerate(self.trick))

    def copy(self) -> DealState:
        return copy_state(self)

    def __repr__(self) -> str:
        return (
            f"<DealState {self.players}p{'+dummy' if self.dummy_seat is not None else ''} "
            f"dealer={self.dealer} phase={self.phase.value} "
            f"to_act={self.to_act} tricks={len(self.tricks)}>"
        )


def copy_state(state: DealState) -> DealState:
    """A copy that :func:`apply` and the simulation fast path (:mod:`.simulate`) can change
    freely (:meth:`DealState.copy`; re-exported as ``simulate.copy_state``).

    Each slot copied by name, no loop over the slots' names (which a compiled class does not
    keep as a tuple to walk): the lists and the seats' holdings are the only mutable parts of a
    state (holdings, hands as joined, history, bids, tricks, the trick, shown poignées and
    discarded trumps); everything else is an int, an enum or an immutable value, shared. Every
    slot is named here; a test checks that none is forgotten.
    """
    other = DealState.__new__(DealState)
    other._best = state._best
    other._best_pos = state._best_pos
    other._card_kind = state._card_kind
    other._cards_suits = state._cards_suits
    other._cards_top = state._cards_top
    other._excuse_trick = state._excuse_trick
    other._led = state._led
    other._legal = state._legal
    other.bids = state.bids.copy()
    other.called_card = state.called_card
    other.chelem_announced = state.chelem_announced
    other.contract = state.contract
    other.deal = state.deal
    other.discard = state.discard
    other.discarded_trumps = state.discarded_trumps.copy()
    other.dummy_seat = state.dummy_seat
    other.first_seat = state.first_seat
    other._held = [held.copy() for held in state._held]
    other._joined = state._joined.copy()
    other._stale = state._stale
    other._taker_tricks = state._taker_tricks
    other._trick_suits = state._trick_suits
    other._trick_top = state._trick_top
    other._won_suits = state._won_suits
    other._won_top = state._won_top
    other.history = state.history.copy()
    other.options = state.options
    other.partner = state.partner
    other.partner_revealed = state.partner_revealed
    other.phase = state.phase
    other.players = state.players
    other.poignee_done = state.poignee_done
    other.poignee_hidden = state.poignee_hidden
    other.poignee_level = state.poignee_level
    other.poignees = state.poignees.copy()
    other.result = state.result
    other.seats = state.seats
    other.taker = state.taker
    other.to_act = state.to_act
    other.trick = state.trick.copy()
    other.trick_leader = state.trick_leader
    other._tricks = state._tricks.copy()
    other._trick_cards = state._trick_cards.copy()  # a finished trick's list never changes
    other._trick_ends = state._trick_ends.copy()
    return other


def legal_actions(state: DealState) -> tuple[Action, ...]:
    """Every action the seat to act may take now, in a fixed order; empty once the deal is over."""
    legal = state._legal
    if legal is not None:
        return legal
    # The plays computed here rather than in a function of their own: a call less at every card.
    if state.phase is _PLAYING:  # first: it is 90% of the decisions
        seat = state.to_act
        assert seat is not None
        held = state._held[seat]
        # _playable_halves inline, each case with the tables of the regions its cards can be in
        led = state._led
        top = held.trumps  # the trumps and the Excuse (see _TOP)
        follow = held.suits & _SUIT_MASKS[led] if 0 <= led < 4 else 0
        if follow:
            plays: tuple[Action, ...] = _SUIT_PLAYS[led][follow >> 14 * led]
            suits = follow
            top_mask = top & _TOP_EXCUSE
            if top_mask:
                plays += _EXCUSE_PLAYS
        elif led >= 0 and top & _TOP_TRUMPS:
            trumps = top & _TOP_TRUMPS
            best = state._best
            higher = trumps & ~((2 << (best - _TOP)) - 1) if best >= _TOP else 0
            suits = 0
            top_mask = (higher or trumps) | top & _TOP_EXCUSE
            plays = _TRUMPS_LOW[top_mask & 0x7FF] + _TRUMPS_HIGH[top_mask >> 11]
        else:
            suits, top_mask = _playable_halves(state, held)
            plays = _plays_of(suits, top_mask)
        state._card_kind = _PLAY
        state._cards_suits = suits
        state._cards_top = top_mask
        if not state.poignee_done >> seat & 1:  # trumps held, the Excuse counted as one
            plays = _POIGNEE_OPTIONS[state.players][top.bit_count()] + plays
        state._legal = plays
        return plays
    legal = state._legal = _compute_legal(state)
    return legal


def _keep_cards(state: DealState, cards: Hand) -> None:
    """``cards`` kept as the cards of the legal actions, in halves (DealState._cards_suits)."""
    state._cards_suits = cards & _SUITS_BITS
    state._cards_top = cards >> _TOP


def _compute_legal(state: DealState) -> tuple[Action, ...]:
    """The legal actions outside the playing phase (:func:`legal_actions` lists the plays)."""
    phase = state.phase
    state._card_kind = None
    if phase is _BIDDING:
        return _BIDDING_OPTIONS[state.options.beginner][state.contract or 0]
    if phase is _DISCARDING:
        cards = _discardable(state)
        _keep_cards(state, cards)
        state._card_kind = _KIND_DISCARD
        return tuple([_DISCARDS[card] for card in cards_of(cards)])
    if phase is _CALLING:
        assert state.taker is not None
        cards = _callable(_hand_of(state, state.taker))
        _keep_cards(state, cards)
        state._card_kind = CallCard
        return tuple(map(CALLS.__getitem__, cards_of(cards)))
    if phase is _CHELEM:
        return (NO_CHELEM, ANNOUNCE_CHELEM)
    if phase is _POIGNEE:
        assert state.to_act is not None
        # Highest first: the fallback (the first legal action) shows the lowest trumps.
        cards = _hand_of(state, state.to_act) & TRUMP_MASK & ~state.poignee_hidden
        _keep_cards(state, cards)
        state._card_kind = HideTrump
        return tuple(map(HIDES.__getitem__, reversed(cards_of(cards))))
    return ()


_BIDDING_OPTIONS: Final[dict[bool, tuple[tuple[Action, ...], ...]]] = {
    beginner: tuple(
        (PASS, *(BIDS[c] for c in TableOptions(beginner=beginner).contracts if c > floor))
        for floor in range(len(Contract) + 1)
    )
    for beginner in (False, True)
}
"""The bids open to a seat, by variant (beginner or not) and the contract to beat (0: none)."""


# A hand is cut into six regions (the four suits, trumps 1-11, trumps 12-21 and the Excuse) so
# that the legal plays of any mask are six table look-ups instead of a loop over its bits.
# Final: the compiled module keeps them in C statics instead of looking their names up.
_SPADES: Final = region_tables(PLAYS, 0, 14)
_HEARTS: Final = region_tables(PLAYS, 14, 14)
_DIAMONDS: Final = region_tables(PLAYS, 28, 14)
_CLUBS: Final = region_tables(PLAYS, 42, 14)
_TRUMPS_LOW: Final = region_tables(PLAYS, 56, 11)
_TRUMPS_HIGH: Final = region_tables(PLAYS, 67, 11)
"""Trumps 12-21 and the Excuse."""
_SUIT_PLAYS: Final[tuple[list[tuple[Play, ...]], ...]] = (_SPADES, _HEARTS, _DIAMONDS, _CLUBS)
_EXCUSE_PLAYS: Final = (PLAYS[EXCUSE],)
_PLAY: Final = Play
"""The class of the plays as this module's constant (an imported name is looked up at each
use)."""
_KIND_PASS: Final = Pass
_KIND_BID: Final = Bid
_KIND_DISCARD: Final = Discard
_KIND_CALL: Final = CallCard
_KIND_CHELEM: Final = ChelemChoice
_KIND_DECLARE: Final = DeclarePoignee
_KIND_HIDE: Final = HideTrump
_DISCARDS: Final = DISCARDS
_CHIEN_SIZES: Final = CHIEN_SIZES
"""The action classes and the tables of the actions' and the rules' hot paths as constants of
the compiled module: a name imported from a pure module is a look-up in its globals at every
use, and an enum member an attribute look-up."""


def _plays_of(suits: int, top: int) -> tuple[Play, ...]:
    """The plays of the cards of a mask's two native halves (see _TOP), lowest card id first."""
    return (
        _SPADES[suits & 0x3FFF]
        + _HEARTS[suits >> 14 & 0x3FFF]
        + _DIAMONDS[suits >> 28 & 0x3FFF]
        + _CLUBS[suits >> 42]
        + _TRUMPS_LOW[top & 0x7FF]
        + _TRUMPS_HIGH[top >> 11]
    )


def _playable_halves(state: DealState, held: Holding) -> tuple[int, int]:
    """:func:`legal_play_mask` for the seat to act holding ``held``, with the called suit's
    rule for the first card of the deal, as the two native halves of a mask (see _TOP): a
    pair of ints is a C struct to mypyc, nothing allocated. Inline, since it runs at every
    card."""
    suits = held.suits
    top = held.trumps
    led = state._led
    if led < 0:
        called = state.called_card
        if called is not None and not state.trick and not state._trick_cards:
            return _without_called_suit(suits, top, called)
        return suits, top
    if led < 4:
        follow = suits & _SUIT_MASKS[led]
        if follow:
            return follow, top & _TOP_EXCUSE
    trumps = top & _TOP_TRUMPS
    if not trumps:
        return suits, top
    best = state._best
    if best >= _TOP:
        higher = trumps & ~((2 << (best - _TOP)) - 1)
        if higher:
            trumps = higher
    return 0, trumps | top & _TOP_EXCUSE


def _without_called_suit(suits: int, top: int, called: Card) -> tuple[int, int]:
    """Five players, first card of the deal: not the called suit, unless the called card."""
    allowed = suits & ~_SUIT_MASKS[called // 14] | suits & (1 << called)
    return (allowed, top) if allowed or top else (suits, top)


def _poignee_options(trumps: int, players: int) -> tuple[DeclarePoignee, ...]:
    """The levels a hand of ``trumps`` trumps, the Excuse counted as one, may show (the test of
    :func:`poignee_cards`, by counting)."""
    return tuple(
        POIGNEES[level]
        for level, need in POIGNEE_THRESHOLDS[players].items()
        if trumps >= need
    )


_POIGNEE_OPTIONS: Final = {
    players: tuple(_poignee_options(trumps, players) for trumps in range(23))
    for players in POIGNEE_THRESHOLDS
}
""":func:`_poignee_options` by player count and trumps held, the Excuse counted as one."""


_CALL_RANKS: Final = (KING, QUEEN, CAVALIER, JACK)


def _hand_of(state: DealState, seat: int) -> Hand:
    """``state.hands[seat]``, that seat's alone joined."""
    return state._held[seat].hand


def _callable(hand: Hand) -> Hand:
    """Kings; a Queen once the hand holds all Kings; a Cavalier once all Queens too; ..."""
    mask = 0
    for rank in _CALL_RANKS:
        mask |= RANK_MASKS[rank]
        if hand & RANK_MASKS[rank] != RANK_MASKS[rank]:
            break
    return mask


def _discardable(state: DealState) -> Hand:
    """Never a King or a bout; a trump only when too few other cards are left to discard."""
    assert state.taker is not None
    hand = _hand_of(state, state.taker)
    plain = hand & ~(TRUMP_MASK | EXCUSE_BIT | KINGS_MASK)
    left = _CHIEN_SIZES[state.players] - state.discard.bit_count()
    if plain.bit_count() >= left:
        return plain
    return plain | (hand & TRUMP_MASK & ~BOUTS_MASK)


def apply(state: DealState, action: Action, seat: int | None = None) -> None:
    """Play ``action`` for the seat to act (checked against ``seat`` when given).

    Raises :class:`WrongTurnError` when ``seat`` is not the seat to act and
    :class:`IllegalActionError` for an action :func:`legal_actions` does not list; the state is
    left unchanged by a refused action.
    """
    if state.phase is _FINISHED:
        raise IllegalActionError("the deal is over: no more actions", action, seat)
    actor = state.to_act
    assert actor is not None
    if seat is not None and seat != actor:
        raise WrongTurnError(_wrong_turn(state, actor, seat), action, seat)
    legal = state._legal
    if legal is None:
        legal = legal_actions(state)
    kind = type(action)  # a type slot read compiled, where .__class__ is an attribute look-up
    if kind is state._card_kind:
        # A bit test rather than a search of the list, which compares the action with each one
        # before it. A card that is no card fails it and is looked for in the list below.
        card = action.card  # type: ignore[union-attr]
        if isinstance(card, int) and 0 <= card < DECK_SIZE and (
            state._cards_suits >> card & 1 if card < _TOP
            else state._cards_top >> (card - _TOP) & 1
        ):
            if kind is _PLAY:
                state._legal = None
                state.history.append((actor, action))
                _play(state, actor, card)
            else:
                _transition(state, actor, action)
            return
    for offered in legal:  # the interned action itself, as a bot answers: no comparison
        if offered is action:
            _transition(state, actor, action)
            return
    if action not in legal:
        raise IllegalActionError(explain_illegal(state, action), action, actor)
    _transition(state, actor, action)


def _wrong_turn(state: DealState, actor: int, seat: int) -> str:
    if actor == state.dummy_seat:
        return (f"it is seat {actor}'s turn (the dummy, played by seat {state.defender}), not "
                f"seat {seat}'s")
    return f"it is seat {actor}'s turn, not seat {seat}'s"


GameState = DealState
"""The name this class had before the two games named their states alike: kept for bots and
scripts written against it."""


def _transition(state: DealState, actor: int, action: Action) -> None:
    """The state after ``actor``'s ``action``, legality already settled: :func:`apply` checks
    first, the simulation fast path (:mod:`.simulate`) trusts its caller."""
    state._legal = None
    state.history.append((actor, action))
    kind = type(action)
    if kind is _PLAY:
        _play(state, actor, action.card)  # type: ignore[union-attr]
    elif kind is _KIND_DECLARE:
        _declare_poignee(state, actor, action.level)  # type: ignore[union-attr]
    elif kind is _KIND_HIDE:
        _hide_trump(state, actor, action.card)  # type: ignore[union-attr]
    elif kind is _KIND_PASS or kind is _KIND_BID:
        _bid(state, actor, action)
    elif kind is _KIND_DISCARD:
        _discard(state, action.card)  # type: ignore[union-attr]
    elif kind is _KIND_CALL:
        _call(state, action.card)  # type: ignore[union-attr]
    elif kind is _KIND_CHELEM:
        state.chelem_announced = action.announce  # type: ignore[union-attr]
        _start_play(state)
    else:  # pragma: no cover - legal_actions lists nothing else
        raise IllegalActionError(f"unknown action {action!r}", action, actor)


def _declare_poignee(state: DealState, seat: int, level: PoigneeLevel) -> None:
    state.poignee_done |= 1 << seat
    hand = _hand_of(state, seat)
    if (hand & TRUMP_MASK).bit_count() > POIGNEE_THRESHOLDS[state.players][level]:
        state.phase = Phase.POIGNEE  # a choice to make: the seat hides its extra trumps
        state.poignee_level = level
        state.poignee_hidden = 0
        return
    shown = poignee_cards(hand, state.players, level, 0)
    assert shown is not None
    state.poignees.append(ShownPoignee(seat, level, shown))


def _hide_trump(state: DealState, seat: int, card: Card) -> None:
    level = state.poignee_level
    assert level is not None
    hidden = state.poignee_hidden | 1 << card
    state.poignee_hidden = hidden
    hand = _hand_of(state, seat)
    if hidden.bit_count() < (hand & TRUMP_MASK).bit_count() - POIGNEE_THRESHOLDS[
        state.players
    ][level]:
        return
    shown = poignee_cards(hand, state.players, level, hidden)
    assert shown is not None
    state.poignees.append(ShownPoignee(seat, level, shown))
    state.poignee_level = None
    state.poignee_hidden = 0
    state.phase = Phase.PLAYING


def _bid(state: DealState, seat: int, action: Action) -> None:
    state.bids.append((seat, action))
    if type(action) is _KIND_BID:
        state.contract = action.contract
        state.taker = seat
    n = state.players  # only players bid: never the dummy, which the turn order puts last
    if len(state.bids) < n:
        state.to_act = (seat + 1) % state.seats
        return
    if state.contract is None:
        state.phase = Phase.FINISHED
        state.to_act = None
        state.result = DealResult(DealOutcome.ALL_PASSED, (0,) * n)
        return
    state.to_act = state.taker
    if n == 5:
        state.phase = Phase.CALLING
    else:
        _after_call(state)


def _call(state: DealState, card: Card) -> None:
    state.called_card = card
    holder = next(s for s, hand in enumerate(state.hands) if hand >> card & 1) if not (
        state.chien >> card & 1
    ) else None
    state.partner = None if holder == state.taker else holder
    _after_call(state)


def _after_call(state: DealState) -> None:
    assert state.contract is not None and state.taker is not None
    if _CHIEN_SHOWN[state.contract]:
        state._held[state.taker].add(state.chien)
        state._stale |= 1 << state.taker
        state.phase = _DISCARDING
    else:
        _ask_chelem(state)


def _discard(state: DealState, card: Card) -> None:
    assert state.taker is not None
    state._held[state.taker].remove(card)
    state._stale |= 1 << state.taker
    state.discard |= 1 << card
    if card >= 56:
        state.discarded_trumps.append(card)
    if state.discard.bit_count() == _CHIEN_SIZES[state.players]:
        _ask_chelem(state)


def _ask_chelem(state: DealState) -> None:
    if state.options.beginner:
        _start_play(state)
    else:
        state.phase = Phase.CHELEM
        state.to_act = state.taker


def _start_play(state: DealState) -> None:
    state.phase = Phase.PLAYING
    leader = state.taker if state.chelem_announced else state.first_seat
    assert leader is not None
    state.trick_leader = leader
    state.to_act = leader


_LAST_TRICK: Final = tuple(HAND_SIZES.get(n, 0) - 1 for n in range(6))
"""The index of the last trick, by hands at the table."""


def _play(state: DealState, seat: int, card: Card) -> None:
    held = state._held[seat]
    if card < 56:
        bit = 1 << card
        held.suits ^= bit
        state._trick_suits |= bit
    else:
        bit = 1 << (card - 56)
        held.trumps ^= bit
        if card != 77:
            state._trick_top |= bit
        else:
            state._excuse_trick = len(state._trick_cards)
    state._stale |= 1 << seat
    state.poignee_done |= 1 << seat
    trick = state.trick
    played = len(trick)
    if card != 77:  # the Excuse; literals here and below: this runs at every card
        led = state._led
        if led < 0:
            state._led = 4 if card >= 56 else card // 14
            state._best = card
            state._best_pos = played
        elif card > state._best and (card >= 56 or card // 14 == led):
            state._best = card
            state._best_pos = played
    called = state.called_card
    if called is not None and card == called:  # not an object comparison, compiled
        state.partner_revealed = True
    trick.append(card)
    n = state.seats
    if played + 1 < n:
        state.to_act = (seat + 1) % n
        return
    leader = state.trick_leader
    winner = (leader + state._best_pos) % n
    done = state._trick_cards
    last = len(done) == _LAST_TRICK[n]
    if last and trick[0] == EXCUSE and not state.options.beginner and _side_took_all(
        state, leader
    ):
        winner = leader  # the Excuse, led to the last trick of a chelem, wins it
    done.append(trick)  # its Trick made only for a reader (DealState.tricks)
    state._trick_ends.append(leader << 3 | winner)
    if _taker_side_mask(state) >> winner & 1:
        state._won_suits |= state._trick_suits
        state._won_top |= state._trick_top
        state._taker_tricks += 1
    state._trick_suits = 0
    state._trick_top = 0
    state.trick = []
    state._led = _NO_LEAD
    state._best = -1
    if last:
        _finish(state)
    else:
        state.trick_leader = winner
        state.to_act = winner


def _side_took_all(state: DealState, seat: int) -> bool:
    side = _taker_side_mask(state)
    mine = side >> seat & 1
    return all((side >> (ends & 7) & 1) == mine for ends in state._trick_ends)


def _taker_side_mask(state: DealState) -> int:
    assert state.taker is not None
    mask = 1 << state.taker
    if state.partner is not None:
        mask |= 1 << state.partner
    return mask


def _finish(state: DealState) -> None:
    """The deal scored: through :func:`~.scoring_core.score_terms` (compiled) on the summary's
    fields, as :func:`~.scoring.score_deal` scores, without its interpreted call."""
    summary, debt_unpaid = summarize(state)
    taker = state.taker
    contract = state.contract
    assert taker is not None and contract is not None
    poignees = 0
    for level in summary.poignees:
        poignees += int(level)
    terms = score_terms(
        summary.players,
        _MULTIPLIER_OF[contract],
        summary.taker_half_points,
        summary.bouts,
        _side_sign(summary.petit_au_bout),
        poignees,
        summary.chelem_announced,
        _side_sign(summary.chelem),
        summary.taker_alone,
    )
    breakdown = _breakdown(*terms)
    scores = seat_scores(state.players, taker, state.partner, terms[8], terms[9], terms[10])
    state.result = _played_result(
        _OUTCOME_PLAYED,
        scores,
        taker,
        state.partner,
        contract,
        state.called_card,
        summary,
        breakdown,
        None,  # petit_sec_seat
        debt_unpaid,
    )
    state.phase = _FINISHED
    state.to_act = None


_played_result: Final = builder(DealResult)
"""``DealResult(*fields)`` without the dataclass's ``__init__``, which sets each field of a
frozen class through ``object.__setattr__``: the result and the summary built that way were
a third of what ending a deal cost (arena.games.frozen)."""
_summary_of: Final = builder(DealSummary, unchecked=True)
_breakdown: Final = builder(ScoreBreakdown)
"""``DealSummary(*fields)``, its checks skipped: :func:`summarize` counts by the rules."""
_OUTCOME_PLAYED: Final = DealOutcome.PLAYED
_MULTIPLIER_OF: Final = tuple([0] + [contract.multiplier for contract in Contract])
"""A contract's multiplier by its value (1..4): a property of an enum is an interpreted call."""
_CHIEN_SHOWN: Final = tuple([False] + [contract.chien_shown for contract in Contract])
"""Whether a contract shows the chien, by its value (1..4), as :data:`_MULTIPLIER_OF`."""
_GARDE_SANS: Final = Contract.GARDE_SANS


def _half_points_table(first: Card, bits: int) -> tuple[int, ...]:
    """``table[m]``: the half-points (:func:`~.cards.mask_half_points`) of the cards
    ``first + i`` for each bit ``i`` of ``m``, each entry one card more than an earlier one."""
    single = [mask_half_points(1 << (first + i)) for i in range(bits)]
    table = [0] * (1 << bits)
    for m in range(1, 1 << bits):
        low = m & -m
        table[m] = table[m ^ low] + single[low.bit_length() - 1]
    return tuple(table)


_LOW_RANKS_HALF_POINTS: Final = _half_points_table(0, 7)
_HIGH_RANKS_HALF_POINTS: Final = _half_points_table(7, 7)
"""The half-points of a suit's seven lowest and seven highest ranks by their bits (every suit
the same ranks): a deal's count made from the two native halves of the taker's cards by ten
look-ups, where the mask joined and counted by an interpreted
:func:`~.cards.mask_half_points` (five big-int operations and five method calls) cost more
than a hundredth of a card phase on the fast path. Tables of seven and eleven bits: a few
thousand entries made at import."""
_TOP_HALF_POINTS_LOW: Final = _half_points_table(_TOP, 11)
_TOP_HALF_POINTS_HIGH: Final = _half_points_table(_TOP + 11, 11)
"""The trumps' and the Excuse's half-points by the two 11-bit regions of a native half."""
_TAKER: Final = Side.TAKER
_DEFENCE: Final = Side.DEFENCE


def _side_sign(side: Side | None) -> int:
    """:func:`~.scoring.side_sign`, compiled."""
    return 1 if side is _TAKER else -1 if side is _DEFENCE else 0


def summarize(state: DealState) -> tuple[DealSummary, bool]:
    """The score-sheet summary of a fully played deal, and whether the Excuse went unpaid.

    Card ownership: each trick goes to its winner's side, except the Excuse, which stays with
    its owner's side (who gives a half-point card in exchange from a trick it has won or wins
    later; never, if it wins none). Played to the last trick, the Excuse goes to the other side,
    unless its side is making a chelem (it won every trick, the Excuse's own trick included):
    then it stays, and the Petit is au bout in the second-to-last trick as well as in the last
    (an addition: a Petit in the last trick itself still counts for the side that wins it).
    With the dummy, its hand defends: its tricks, its Excuse and its Petit are the defence's.
    """
    assert state.contract is not None and state.taker is not None
    side = _taker_side_mask(state)
    tricks = state._trick_cards
    ends = state._trick_ends
    last = len(tricks) - 1
    taker_tricks = state._taker_tricks
    chelem_side = 1 if taker_tricks == last + 1 else 0 if taker_tricks == 0 else None
    if state.options.beginner:
        chelem_side = None  # the beginner variant knows no chelem
    # The taker's side's cards but the Excuse, gathered by _play a trick at a time in two
    # native ints (see _TOP), joined once.
    suits = state._won_suits
    top = state._won_top
    excuse_exchange: int | None = None  # the owner's side, when a half-point card is owed
    excuse_in_chelem = False
    index = state._excuse_trick
    if index >= 0:
        cards = tricks[index]
        owner_side = side >> ((ends[index] >> 3) + cards.index(EXCUSE)) % len(cards) & 1
        excuse_side = owner_side
        if index == last:
            excuse_in_chelem = chelem_side is not None and chelem_side == owner_side
            if not excuse_in_chelem:
                excuse_side = 1 - owner_side
        elif owner_side != side >> (ends[index] & 7) & 1:
            excuse_exchange = owner_side
        if excuse_side:
            top |= _TOP_EXCUSE
    contract = state.contract
    if _CHIEN_SHOWN[contract]:
        set_aside = state.discard
    elif contract is _GARDE_SANS:
        set_aside = state.chien
    else:
        set_aside = 0
    if set_aside:
        suits |= set_aside & _SUITS_BITS
        top |= set_aside >> _TOP
    low = _LOW_RANKS_HALF_POINTS
    high = _HIGH_RANKS_HALF_POINTS
    half = (  # mask_half_points of the taker's cards, by tables (see _LOW_RANKS_HALF_POINTS)
        low[suits & 0x7F] + high[suits >> 7 & 0x7F]
        + low[suits >> 14 & 0x7F] + high[suits >> 21 & 0x7F]
        + low[suits >> 28 & 0x7F] + high[suits >> 35 & 0x7F]
        + low[suits >> 42 & 0x7F] + high[suits >> 49]
        + _TOP_HALF_POINTS_LOW[top & 0x7FF] + _TOP_HALF_POINTS_HIGH[top >> 11]
    )
    debt_unpaid = False
    if excuse_exchange is not None:
        if (taker_tricks if excuse_exchange else last + 1 - taker_tricks) > 0:
            half += -1 if excuse_exchange else 1  # a half-point card crosses to the winner
        else:
            debt_unpaid = True
    petit_au_bout = None
    for petit_trick in (last, last - 1) if excuse_in_chelem else (last,):
        if PETIT in tricks[petit_trick]:
            petit_au_bout = _TAKER if side >> (ends[petit_trick] & 7) & 1 else _DEFENCE
    chelem: Side | None = None
    if chelem_side is not None:
        chelem = _TAKER if chelem_side else _DEFENCE
    summary = _summary_of(
        state.players,
        contract,
        half,  # taker_half_points
        (top & 1) + (top >> 20 & 1) + (top >> 21),  # bouts: the Petit, the 21, the Excuse
        petit_au_bout,
        tuple([p.level for p in state.poignees]),
        state.chelem_announced,
        chelem,
        state.players == 5 and state.partner is None,  # taker_alone
    )
    return summary, debt_unpaid


_PHASE_ACTIONS: Final[dict[Phase, tuple[type, ...]]] = {
    Phase.BIDDING: (Pass, Bid),
    Phase.CALLING: (CallCard,),
    Phase.DISCARDING: (Discard,),
    Phase.CHELEM: (ChelemChoice,),
    Phase.POIGNEE: (HideTrump,),
    Phase.PLAYING: (Play, DeclarePoignee),
}


def explain_illegal(state: DealState, action: Action) -> str:
    """Why ``action`` is not legal now, in the words a player would use."""
    card = getattr(action, "card", 0)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < DECK_SIZE:
        return f"{card!r} is not a card: cards are numbered 0 to {DECK_SIZE - 1}"
    phase = state.phase
    seat = state.to_act
    expected = _PHASE_ACTIONS.get(phase, ())
    if not isinstance(action, expected):
        if phase is Phase.POIGNEE:
            return (f"{action} must wait: first choose the trumps to keep hidden from the "
                    f"{state.poignee_level.label if state.poignee_level else ''} poignée")
        if isinstance(action, HideTrump):
            return f"{action}: trumps are hidden only while showing a poignée with extra trumps"
        return f"{action} is not an action of the {phase.value} phase"
    if isinstance(action, Bid):
        if action.contract not in state.options.contracts:
            return f"{action.contract.label} is not a contract of the beginner variant"
        assert state.contract is not None
        return f"a bid must be higher than {state.contract.label}"
    assert seat is not None
    hand = _hand_of(state, seat)
    if isinstance(action, CallCard):
        return _explain_call(hand, action.card)
    if isinstance(action, Discard):
        return _explain_discard(state, hand, action.card)
    if isinstance(action, DeclarePoignee):
        return _explain_poignee(state, seat, hand, action.level)
    if isinstance(action, Play):
        return _explain_play(state, hand, action.card)
    if isinstance(action, HideTrump):
        return _explain_hide(state, hand, action.card)
    return f"{action} is not allowed now"  # pragma: no cover


def _explain_call(hand: Hand, card: Card) -> str:
    if not 0 <= card < 56 or card % 14 not in _CALL_RANKS:
        return f"only a King (or a Queen, Cavalier, Jack) can be called, not {card_name(card)}"
    return (f"{card_long_name(card)} cannot be called: a lower rank may be called only when "
            "the taker holds all four cards of every higher rank")


def _explain_discard(state: DealState, hand: Hand, card: Card) -> str:
    if not hand >> card & 1:
        return f"{card_name(card)} is not in the taker's hand"
    if card % 14 == KING and card < 56:
        return "a King may never be discarded"
    if BOUTS_MASK >> card & 1:
        return f"{card_long_name(card)} is a bout and may never be discarded"
    return f"{card_name(card)} is a trump: trumps may be discarded only when nothing else can be"


def _explain_poignee(state: DealState, seat: int, hand: Hand, level: PoigneeLevel) -> str:
    if state.options.beginner:
        return "the beginner variant has no poignée"
    if seat == state.dummy_seat:
        return "the dummy never shows a poignée"
    if state.poignee_done >> seat & 1:
        return "a poignée is shown just before one's first card, and only once"
    need = POIGNEE_THRESHOLDS[state.players][level]
    have = (hand & TRUMP_MASK).bit_count()
    return (f"a {level.label} poignée needs {need} trumps (the Excuse may replace one), "
            f"this hand has {have}")


def _explain_hide(state: DealState, hand: Hand, card: Card) -> str:
    if not hand >> card & 1:
        return f"{card_name(card)} is not in this hand"
    if card == EXCUSE:
        return "only trumps can be hidden, not EX: the Excuse is shown only for a missing trump"
    if not TRUMP_MASK >> card & 1:
        return f"only trumps can be hidden, not {card_name(card)}"
    return f"{card_name(card)} is already hidden"


def _explain_play(state: DealState, hand: Hand, card: Card) -> str:
    if not hand >> card & 1:
        return f"{card_name(card)} is not in this hand"
    led = state._led
    if not state.trick and state.called_card is not None and not state._trick_cards:
        suit = SUIT_NAMES[state.called_card // 14]
        return f"the first card of the deal may not be of {suit}, the called suit"
    if led < 0:  # pragma: no cover - any card in hand may be led
        return f"{card_name(card)} cannot be played now"
    if led < 4 and hand & _SUIT_MASKS[led]:
        return f"must follow {SUIT_NAMES[led]}"
    trumps = hand & TRUMP_MASK
    if card < 56 and trumps:
        return "must trump" if led < 4 else "must play a trump"
    best = state._best
    return f"must play a trump higher than {best - 55}"
