"""The Tre e Venticinque engine: one deal, from the dealer's discard to each player's points.

The rules are those of ``RULES.md`` section 2, from the seed document
``seeds/002_f54b53a154123bc4.txt``; where the seed is silent or could be read two ways, the
engine's choice is stated where it is made, naming the seed, and in ``docs/rules.md``.

``legal_actions(state)`` is the only source of legality: :func:`apply` accepts exactly the actions
it lists and raises :class:`~arena.games.base.IllegalActionError` (saying why) for anything else.
A :class:`DealState` is mutable and :func:`apply` changes it in place, for speed, as in French
Tarot; :meth:`DealState.copy` branches.
"""

from __future__ import annotations

from enum import Enum
from typing import Final

from ..base import IllegalActionError, WrongTurnError
from ..cardsets import Holding, holding, joined, region_tables, rejoin
from ..frozen import builder
from ..registry import OfGame
from ..tricks import Trick as Trick
from ..tricks import made_tricks, trick_records
from .actions import DISCARDS, PLAYS, Action, Discard, Play
from .cards import (
    DECK_SIZE,
    KING,
    KINGS_MASK,
    MATTO,
    MATTO_BIT,
    ONE_THIRD_MASK,
    STRENGTH,
    SUIT_MASKS,
    SUIT_NAMES,
    THIRDS,
    TRUMP_MASK,
    Card,
    Hand,
    beats,
    card_long_name,
    card_name,
    cards_of,
    mask_thirds,
)
from .deal import HAND_SIZE, PLAYERS, TALON_SIZE, Deal, seeded_deal
from .values import DealOutcome as DealOutcome
from .values import DealResult as DealResult
from .values import MattoDebt as MattoDebt
from .values import MattoExchange as MattoExchange
from .values import TableOptions as TableOptions

TRICKS: Final = HAND_SIZE
"""25 tricks: every card of every hand is played."""


class Phase(Enum):
    DISCARDING = "discarding"
    PLAYING = "playing"
    FINISHED = "finished"


_PLAYING: Final = Phase.PLAYING  # module constants: enum attribute look-ups cost on hot paths
_FINISHED: Final = Phase.FINISHED


def settle(points: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """The zero-sum scores of card points (in thirds): each seat's differences with the others,
    added up."""
    total = sum(points)
    return tuple(PLAYERS * p - total for p in points)


_NO_FOLLOW: Final = -1
_FOLLOW_TRUMP: Final = 4


def legal_play_mask(hand: Hand, follow: int, matto_free: bool) -> Hand:
    """The cards of ``hand`` that may be played to the trick now.

    ``follow`` is what the trick asks of the seat: a suit 0..3, 4 for a trump (a trump or the
    Matto was led), -1 when the seat leads. Follow suit (no need to go higher); without the suit,
    a trump; without either, anything. ``matto_free``: the seat has won a trick, so it may play
    the Matto instead (the seed: "Può essere giocato solo quando chi ne è in possesso ha già
    effettuato almeno una presa"). A hand holding only the Matto must play it (the last trick).
    """
    if follow < 0:
        allowed = hand & ~MATTO_BIT
    elif follow < 4 and hand & SUIT_MASKS[follow]:
        allowed = hand & SUIT_MASKS[follow]
    elif hand & TRUMP_MASK:
        allowed = hand & TRUMP_MASK
    else:
        allowed = hand & ~MATTO_BIT
    if matto_free:
        allowed |= hand & MATTO_BIT
    return allowed or hand


def discardable_mask(hand: Hand, still_to_discard: int) -> Hand:
    """The cards the dealer may lay in the discard now.

    Never a King, a trump or the Matto (the seed: "con l'unica riserva di non inserirvi né Re
    né tarocchi"). The seed does not foresee a dealer with fewer than three other cards among
    its 28; the engine then lets it complete the discard with plain trumps (2 to 20), never the 1,
    the 21, a King or the Matto. That takes a dealer holding every trump, every King and the
    Matto, so it is a matter of principle more than of practice.
    """
    allowed = hand & ~(KINGS_MASK | TRUMP_MASK | MATTO_BIT)
    if allowed.bit_count() < still_to_discard:
        allowed |= hand & TRUMP_MASK & ONE_THIRD_MASK
    return allowed


def trick_follow(cards: list[Card] | tuple[Card, ...]) -> int:
    """What a trick asks of the next seat, from its cards so far (see :func:`legal_play_mask`).

    A led Matto asks for a trump (the seed: "i giocatori che seguono debbono comportarsi come se
    fosse stato giocato un tarocco").
    """
    if not cards:
        return _NO_FOLLOW
    first = cards[0]
    return _FOLLOW_TRUMP if first >= 56 else first // 14


def trick_winner_index(cards: list[Card] | tuple[Card, ...]) -> int:
    """The index in ``cards`` (play order) of the card that wins them: the strongest trump,
    else the strongest card of the suit led.

    After a led Matto with no trump played, the seed is silent ("La presa in cui è giocato il
    Matto è sempre appannaggio di uno degli altri due giocatori"); the engine lets the next
    card set the suit, as the Excuse does in French Tarot.
    """
    best = -1
    best_index = -1
    for index, card in enumerate(cards):
        if card == MATTO:
            continue
        if best < 0:
            best, best_index = card, index
        elif card >= 56:
            if best < 56 or STRENGTH[card] > STRENGTH[best]:
                best, best_index = card, index
        elif best < 56 and card // 14 == best // 14 and STRENGTH[card] > STRENGTH[best]:
            best, best_index = card, index
    if best_index < 0:
        raise ValueError("a trick of the Matto alone has no winner")
    return best_index


def collect_trick(
    piles: list[Hand], tricks_won: list[int], debt: MattoDebt | None, index: int, trick: Trick
) -> tuple[MattoDebt | None, MattoExchange | None, bool]:
    """Give a finished trick to its winner; the Matto's exchange and its debt.

    Changes ``piles`` (each seat's cards taken, as masks) and ``tricks_won`` in place and returns
    ``(debt, exchange, matto_lost)``: the debt still owed after this trick, the exchange made
    after it (if any) and whether the Matto was lost in it. The engine and the observations of the
    seats (:func:`~arena.games.tre_e_venticinque.observation.observation_after`) both call it,
    so they cannot disagree.

    - The trick's cards go to its winner, except the Matto played by a holder who has won a
      trick: the holder keeps it and gives the winner a 1/3-point card from its own tricks. The
      seed asks for a *scartina*; the engine gives the lowest-id 1/3-point card, which is a small
      suit card (a scartina) whenever the holder has one, and a plain trump only otherwise.
    - A holder with no such card yet owes it; the debt is paid after the first trick the holder
      wins that brings one (as French Tarot's Excuse does). Unpaid at the end, it is forgotten
      (the seed does not foresee it; the holder loses nothing more for it).
    - A holder who won no trick played the Matto to the last trick, forced: it is lost, and goes
      with the trick to its winner (the seed: "è costretto a giocare il Matto all'ultima mano, e
      lo perde").
    """
    winner = trick.winner
    cards = trick.cards
    taken = (1 << cards[0]) | (1 << cards[1]) | (1 << cards[2])
    exchange = None
    lost = False
    if taken & MATTO_BIT:
        holder = (trick.leader + cards.index(MATTO)) % PLAYERS
        if tricks_won[holder]:
            taken ^= MATTO_BIT
            piles[holder] |= MATTO_BIT
            low = piles[holder] & ONE_THIRD_MASK
            if low:
                low &= -low
                piles[holder] ^= low
                piles[winner] |= low
                exchange = MattoExchange(index, holder, winner, low.bit_length() - 1)
            else:
                debt = MattoDebt(holder, winner)
        else:
            lost = True
    piles[winner] |= taken
    tricks_won[winner] += 1
    if debt is not None and winner == debt.holder:
        low = piles[winner] & ONE_THIRD_MASK
        if low:
            low &= -low
            piles[winner] ^= low
            piles[debt.winner] |= low
            exchange = MattoExchange(index, winner, debt.winner, low.bit_length() - 1)
            debt = None
    return debt, exchange, lost


class DealState(OfGame):
    """One deal in progress. Read it through attributes; change it only with :func:`apply`."""

    __slots__ = (
        "_best",
        "_best_pos",
        "_follow",
        "_held",
        "_joined",
        "_legal",
        "_mask",
        "_stale",
        "_trick_cards",
        "_trick_ends",
        "_tricks",
        "deal",
        "debt",
        "discard",
        "exchange",
        "history",
        "matto_lost",
        "options",
        "phase",
        "piles",
        "result",
        "to_act",
        "trick",
        "trick_leader",
        "tricks_won",
    )

    options: TableOptions
    deal: Deal
    phase: Phase
    to_act: int | None
    history: list[tuple[int, Action]]
    discard: Hand
    _tricks: list[Trick]
    """The finished tricks made :class:`Trick` objects so far, for :attr:`tricks`."""
    _trick_cards: list[list[Card]]
    """Each finished trick's cards in play order: the list the trick was played into, kept."""
    _trick_ends: list[int]
    """Each finished trick's leader and winner, ``leader << 3 | winner``."""
    trick: list[Card]
    trick_leader: int
    piles: list[Hand]
    """Each seat's cards taken so far (the Matto's exchange applied; the discard apart)."""
    tricks_won: list[int]
    debt: MattoDebt | None
    exchange: MattoExchange | None
    matto_lost: bool
    result: DealResult | None
    _follow: int
    _best: Card
    _best_pos: int
    _legal: tuple[Action, ...] | None
    _mask: Hand
    """The legal cards' mask (:func:`legal_mask`), -1 until computed."""
    _held: list[Holding]
    """Each seat's cards, in two native halves: what the rules read and change."""
    _joined: list[Hand]
    """``hands`` as last joined, up to date but for the seats in ``_stale``."""
    _stale: int
    """The seats (bit ``s`` for seat ``s``) whose cards changed since ``_joined`` was."""

    def __new__(cls, *args: object, **kwargs: object) -> DealState:
        """Allocation alone, as for any Python class: :func:`copy_state` fills a new state
        without dealing. Spelled out for the compiled engine, whose classes otherwise run
        ``__init__`` from ``__new__``."""
        return super().__new__(cls)

    def __init__(self, deal: Deal, options: TableOptions | None = None) -> None:
        self.options = options or TableOptions()
        self.deal = deal
        hands = list(deal.hand_masks)
        hands[deal.dealer] |= deal.talon_mask  # the dealer takes up the three left
        self.hands = hands
        self.phase = Phase.DISCARDING
        self.to_act = deal.dealer
        self.history = []
        self.discard = 0
        self._tricks = []
        self._trick_cards = []
        self._trick_ends = []
        self.trick = []
        self.trick_leader = self.first_seat
        self.piles = [0] * PLAYERS
        self.tricks_won = [0] * PLAYERS
        self.debt = None
        self.exchange = None
        self.matto_lost = False
        self.result = None
        self._follow = _NO_FOLLOW
        self._best = -1
        self._best_pos = 0
        self._legal = None
        self._mask = -1

    @classmethod
    def from_seed(cls, seed: int, dealer: int = 0) -> DealState:
        return cls(seeded_deal(seed, dealer))

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
    def players(self) -> int:
        return PLAYERS

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def first_seat(self) -> int:
        """The seat after the dealer in the order of play: it leads the first trick (the seed:
        "colui che siede alla destra del mazziere")."""
        return (self.deal.dealer + 1) % PLAYERS

    @property
    def is_over(self) -> bool:
        return self.phase is _FINISHED

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        return tuple(((self.trick_leader + i) % PLAYERS, c) for i, c in enumerate(self.trick))

    @property
    def tricks(self) -> list[Trick]:
        """The finished tricks, in order (the state's own list: read it, do not change it),
        each made only when read (:func:`~arena.games.tricks.made_tricks`)."""
        return made_tricks(self._tricks, self._trick_cards, self._trick_ends)

    @tricks.setter
    def tricks(self, tricks: list[Trick]) -> None:
        """Finished tricks set by hand (a position built for a test or an analysis)."""
        self._tricks, self._trick_cards, self._trick_ends = trick_records(tricks)

    def matto_free(self, seat: int) -> bool:
        """Whether ``seat`` may play the Matto now: it has won a trick."""
        return self.tricks_won[seat] > 0

    def copy(self) -> DealState:
        other = copy_state(self)
        other.history = self.history.copy()
        return other

    def __repr__(self) -> str:
        return (f"<DealState dealer={self.dealer} phase={self.phase.value} "
                f"to_act={self.to_act} tricks={len(self.tricks)}>")


def copy_state(state: DealState) -> DealState:
    """A copy that the simulation fast path (:mod:`.simulate`, which re-exports it) may change
    freely; :meth:`DealState.copy` copies ``history`` too.

    Each slot copied by name, no loop over the slots' names (which a compiled class does not
    keep as a tuple to walk): the lists and the seats' holdings are the only mutable parts of a
    state (holdings, hands as joined, piles,
    tricks won, tricks, the trick, history); everything else is an int, an enum or an
    immutable value, shared. ``history`` is shared too, since the fast path never appends to
    it. Every slot is named here; a test checks that none is forgotten.
    """
    other = DealState.__new__(DealState)
    other._best = state._best
    other._best_pos = state._best_pos
    other._follow = state._follow
    other._legal = state._legal
    other._mask = state._mask
    other.deal = state.deal
    other.debt = state.debt
    other.discard = state.discard
    other.exchange = state.exchange
    other._held = [held.copy() for held in state._held]
    other._joined = state._joined.copy()
    other._stale = state._stale
    other.history = state.history
    other.matto_lost = state.matto_lost
    other.options = state.options
    other.phase = state.phase
    other.piles = state.piles.copy()
    other.result = state.result
    other.to_act = state.to_act
    other.trick = state.trick.copy()
    other.trick_leader = state.trick_leader
    other._tricks = state._tricks.copy()
    other._trick_cards = state._trick_cards.copy()  # a finished trick's list never changes
    other._trick_ends = state._trick_ends.copy()
    other.tricks_won = state.tricks_won.copy()
    return other


def legal_actions(state: DealState) -> tuple[Action, ...]:
    """Every action the seat to act may take now, lowest card id first; empty once over."""
    legal = state._legal
    if legal is None:
        seat = state.to_act
        if seat is None:
            return ()
        if state.phase is _PLAYING:  # first: 75 of a deal's 78 decisions
            # legal_play_mask inline, each common case with the tables of the regions its cards
            # can be in: following suit (a region and perhaps the Matto), then trumping; on the
            # hand's two native halves (see _TOP)
            held = state._held[seat]
            top = held.trumps
            follow = state._follow
            matto = top & _TOP_MATTO if state.tricks_won[seat] else 0
            cards = held.suits & _SUIT_MASKS[follow] if 0 <= follow < 4 else 0
            if cards:
                legal = _SUIT_PLAYS[follow][cards >> 14 * follow]
            elif follow >= 0 and top & _TOP_TRUMPS:
                trumps = top & _TOP_TRUMPS
                cards = joined(0, trumps)
                legal = _TRUMPS_LOW[trumps & 0x7FF] + _TRUMPS_HIGH[trumps >> 11]
            else:
                suits, top = _playable_halves(held, follow, False)
                cards = joined(suits, top)
                matto = 0 if top & _TOP_MATTO else matto  # a hand of the Matto alone
                legal = plays_of(cards)
            if matto:
                cards |= _MATTO_BIT
                legal += _MATTO_PLAYS
            state._mask = cards
            state._legal = legal
        else:
            legal = state._legal = tuple(map(DISCARDS.__getitem__, cards_of(legal_mask(state))))
    return legal


def legal_mask(state: DealState) -> Hand:
    """The cards the seat to act may play or discard now, as a mask (0 once the deal is over):
    the one rule behind :func:`legal_actions` and :func:`apply`."""
    mask = state._mask
    if mask < 0:
        seat = state.to_act
        if seat is None:
            return 0
        hand = state._held[seat].hand
        if state.phase is _PLAYING:
            mask = legal_play_mask(hand, state._follow, state.tricks_won[seat] > 0)
        else:
            mask = discardable_mask(hand, TALON_SIZE - state.discard.bit_count())
        state._mask = mask
    return mask


# A hand is cut into six regions (the four suits, trumps 1-11, trumps 12-21 with the Matto) so
# that the plays of any mask are six table look-ups instead of a loop over its bits.
# Final: the compiled module keeps them in C statics instead of looking their names up.
_SWORDS: Final = region_tables(PLAYS, 0, 14)
_CUPS: Final = region_tables(PLAYS, 14, 14)
_COINS: Final = region_tables(PLAYS, 28, 14)
_BATONS: Final = region_tables(PLAYS, 42, 14)
_TRUMPS_LOW: Final = region_tables(PLAYS, 56, 11)
_TRUMPS_HIGH: Final = region_tables(PLAYS, 67, 11)
_SUIT_PLAYS: Final[tuple[list[tuple[Play, ...]], ...]] = (_SWORDS, _CUPS, _COINS, _BATONS)
_MATTO_PLAYS: Final = (PLAYS[MATTO],)
_SUIT_MASKS: Final[tuple[Hand, ...]] = (
    SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3]
)
_MATTO_BIT: Final[Hand] = MATTO_BIT
_PLAY: Final = Play
_TOP: Final = 56
"""A hand's upper half (:class:`~arena.games.cardsets.Holding`'s ``trumps``) holds the trumps
1-21 as bits 0-20 and the Matto as bit 21: a native int of the compiled module."""
_TOP_TRUMPS: Final = (1 << 21) - 1
_TOP_MATTO: Final = 1 << 21


def _playable_halves(held: Holding, follow: int, matto_free: bool) -> tuple[int, int]:
    """:func:`legal_play_mask` on the two native halves of a hand (see _TOP), returned so: a
    pair of ints is a C struct to mypyc, nothing allocated."""
    suits = held.suits
    top = held.trumps
    if follow < 0:
        low, high = suits, top & _TOP_TRUMPS
    elif follow < 4 and suits & _SUIT_MASKS[follow]:
        low, high = suits & _SUIT_MASKS[follow], 0
    elif top & _TOP_TRUMPS:
        low, high = 0, top & _TOP_TRUMPS
    else:
        low, high = suits, top & _TOP_TRUMPS
    if matto_free:
        high |= top & _TOP_MATTO
    if low or high:
        return low, high
    return suits, top


def plays_of(mask: Hand) -> tuple[Play, ...]:
    """The plays of the cards in ``mask``, lowest card id first."""
    return (
        _SWORDS[mask & 0x3FFF]
        + _CUPS[mask >> 14 & 0x3FFF]
        + _COINS[mask >> 28 & 0x3FFF]
        + _BATONS[mask >> 42 & 0x3FFF]
        + _TRUMPS_LOW[mask >> 56 & 0x7FF]
        + _TRUMPS_HIGH[mask >> 67]
    )


def apply(state: DealState, action: Action, seat: int | None = None) -> None:
    """Apply the action of the seat to act (checked against ``seat`` when given).

    Raises :class:`~arena.games.base.WrongTurnError` when ``seat`` is not the seat to act and
    :class:`~arena.games.base.IllegalActionError` for an action :func:`legal_actions` does not
    list; the state is left unchanged by a refused action.
    """
    actor = state.to_act
    # The common case first, in the fewest steps: a play in the playing phase (the seat to act
    # is then a seat), checked by its bit in the legal mask, not by a membership test of the
    # list, which compares interned dataclasses field by field.
    if action.__class__ is _PLAY and state.phase is _PLAYING and (seat is None or seat == actor):
        mask = state._mask
        if mask < 0:
            mask = legal_mask(state)
        played = action.card
        if played.__class__ is int and played >= 0 and mask >> played & 1:
            assert actor is not None
            state._legal = None
            state._mask = -1
            state.history.append((actor, action))
            _play(state, actor, played)
            return
    if state.phase is _FINISHED:
        raise IllegalActionError("the deal is over: no more actions", action, seat)
    assert actor is not None
    if seat is not None and seat != actor:
        raise WrongTurnError(f"it is seat {actor}'s turn, not seat {seat}'s", action, seat)
    kind = type(action)
    mask = legal_mask(state)
    card: object
    if kind is Play:
        card = action.card
        legal = state.phase is _PLAYING
    else:
        card = getattr(action, "card", None)
        legal = kind is Discard and state.phase is not _PLAYING
    if not legal or type(card) is not int or not 0 <= card < DECK_SIZE or not mask >> card & 1:
        raise IllegalActionError(explain_illegal(state, action), action, actor)
    assert isinstance(card, int)
    state._legal = None
    state._mask = -1
    state.history.append((actor, action))
    if kind is Play:
        _play(state, actor, card)
    else:
        _discard(state, actor, card)


def _discard(state: DealState, dealer: int, card: Card) -> None:
    state._held[dealer].remove(card)
    state._stale |= 1 << dealer
    state.discard |= 1 << card
    if state.discard.bit_count() == TALON_SIZE:
        state.phase = Phase.PLAYING
        state.to_act = state.trick_leader = state.first_seat


_new_trick: Final = tuple.__new__
"""Builds a :class:`Trick` from its three fields without the named tuple's Python-level
``__new__``: a deal makes 25 of them."""
_TRICK: Final = Trick
"""The class as a constant of the compiled module: a module-level name of a pure module is a
look-up in its globals at every use."""


def _beats_row(best: Card) -> tuple[bool, ...]:
    if best == MATTO:  # the row read after a led Matto (best -1): any card but the Matto
        return tuple(card != MATTO for card in range(DECK_SIZE))
    return tuple(beats(card, best) for card in range(DECK_SIZE))


_BEATS: Final = tuple(_beats_row(best) for best in range(DECK_SIZE))
"""``_BEATS[best][card]``: :func:`~.cards.beats`, one look-up per card played. The Matto is
never ``best``, so its row serves ``best`` -1, the trick after a led Matto: index -1 is its."""


def _play(state: DealState, seat: int, card: Card) -> None:
    held = state._held[seat]
    if card < 56:
        held.suits ^= 1 << card
    else:
        held.trumps ^= 1 << (card - 56)
    state._stale |= 1 << seat
    trick = state.trick
    played = len(trick)
    if played:
        if _BEATS[state._best][card]:
            state._best = card
            state._best_pos = played
    elif card == MATTO:
        state._follow = _FOLLOW_TRUMP
    else:
        state._follow = _FOLLOW_TRUMP if card >= 56 else card // 14
        state._best = card
        state._best_pos = 0
    trick.append(card)
    if played < 2:
        state.to_act = (seat + 1) % PLAYERS
        return
    leader = state.trick_leader
    winner = (leader + state._best_pos) % PLAYERS
    tricks = state._trick_cards
    index = len(tricks)
    tricks.append(trick)  # its Trick made only for a reader (DealState.tricks)
    state._trick_ends.append(leader << 3 | winner)
    if state.debt is None and MATTO not in trick:  # collect_trick's plain case, inline
        state.piles[winner] |= (1 << trick[0]) | (1 << trick[1]) | (1 << card)
        state.tricks_won[winner] += 1
    else:
        state.debt, exchange, lost = collect_trick(
            state.piles, state.tricks_won, state.debt, index,
            _new_trick(_TRICK, (leader, tuple(trick), winner)),
        )
        if exchange is not None:
            state.exchange = exchange
        if lost:
            state.matto_lost = True
    state.trick = []
    state._follow = _NO_FOLLOW
    state._best = -1
    if index == TRICKS - 1:
        _finish(state)
    else:
        state.trick_leader = winner
        state.to_act = winner


def _finish(state: DealState) -> None:
    dealer = state.dealer
    discard = mask_thirds(state.discard)
    points = [mask_thirds(pile) for pile in state.piles]
    points[dealer] += discard
    state.result = _played_result(
        _OUTCOME_PLAYED,
        settle(points),
        dealer,
        tuple(state.tricks_won),
        discard,
        state.matto_lost,
        state.debt is not None,  # matto_debt_unpaid
    )
    state.phase = _FINISHED
    state.to_act = None


_played_result: Final = builder(DealResult)
"""``DealResult(*fields)`` without the dataclass's ``__init__``, which sets each field of a
frozen class through ``object.__setattr__`` (arena.games.frozen)."""
_OUTCOME_PLAYED: Final = DealOutcome.PLAYED


def explain_illegal(state: DealState, action: object) -> str:
    """Why ``action`` is not legal now, in the words a player would use."""
    phase = state.phase
    if phase is _FINISHED:
        return "the deal is over: no more actions"
    seat = state.to_act
    assert seat is not None
    if phase is Phase.DISCARDING and not isinstance(action, Discard):
        return (f"the dealer (seat {state.dealer}) discards three cards before the first trick: "
                f"{action} must wait")
    if phase is _PLAYING and not isinstance(action, Play):
        if isinstance(action, Discard):
            return "the discard is over: play a card"
        return f"{action!r} is not an action of Tre e Venticinque"
    assert isinstance(action, Discard | Play)
    card = action.card
    hand = state.hands[seat]
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < len(THIRDS):
        return f"{card!r} is not a card"
    if not hand >> card & 1:
        who = "the dealer's hand" if isinstance(action, Discard) else "this hand"
        return f"{card_name(card)} is not in {who}"
    if isinstance(action, Discard):
        if card == MATTO:
            return "the Matto may never be discarded"
        if card < 56 and card % 14 == KING:
            return "a King may never be discarded"
        return f"{card_long_name(card)} is a trump: trumps may never be discarded"
    if card == MATTO:
        if not state.tricks_won[seat]:
            return "the Matto may be played only once its holder has won a trick"
        return "the Matto cannot be played now"  # pragma: no cover - it always may then
    follow = state._follow
    if follow < 0:
        return "the Matto must wait: lead another card"  # pragma: no cover
    if follow < 4 and hand & SUIT_MASKS[follow]:
        return f"must follow {SUIT_NAMES[follow]}"
    if state.trick[0] == MATTO:
        return "the Matto was led: must play a trump, as if a trump had been led"
    if follow < 4:
        return f"no {SUIT_NAMES[follow]} in hand: must play a trump"
    return "a trump was led: must play a trump"
