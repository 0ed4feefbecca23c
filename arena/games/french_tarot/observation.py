"""What one seat may see of a deal: the only view of the state that leaves the engine for a bot.

Hidden until the deal ends: the other hands, a chien that is not shown (Garde Sans, Garde
Contre), the taker's discard (except the trumps in it, which are shown to all; the taker sees
the whole discard), with five players, who holds the called card until it is played, and a
poignée until it is shown (while its player chooses the trumps to hide, the others see the
playing phase).

With two players and the dummy, each player also sees the dummy's hand from the moment it is
shown (:attr:`DealState.dummy_shown`: the end of the discard, or the end of bidding for Garde
Sans and Garde Contre), and nothing else of it before. The dummy is nobody's observer: its
"observation" is its controller's, the defender's, who is also the seat whose ``legal_actions``
are listed in the dummy's turn (``to_act`` then names the dummy's seat).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, Final

from ..frozen import twin
from .actions import Action, Bid, Contract
from .cards import Card, cards_of
from .deal import CHIEN_SIZES, DUMMY, HAND_SIZES, Deal, first_seat
from .events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChelemDecided,
    ChienShown,
    DummyShown,
    Event,
    PartnerRevealed,
    PoigneeShown,
    TrickWon,
    TrumpDiscarded,
)
from .game import DealResult, DealState, Phase, legal_actions
from .observation_value import Observation as Observation

_TWIN: Final = twin(Observation)
_Draft: Final[Any] = _TWIN[0]
_become: Final[Callable[[Any], Observation]] = _TWIN[1]
_KEEP: Final[Any] = object()
_new: Final = object.__new__


def replace(
    view: Observation,
    /,
    *,
    seat: Any = _KEEP,
    options: Any = _KEEP,
    dealer: Any = _KEEP,
    phase: Any = _KEEP,
    to_act: Any = _KEEP,
    hand: Any = _KEEP,
    legal_actions: Any = _KEEP,
    bids: Any = _KEEP,
    contract: Any = _KEEP,
    taker: Any = _KEEP,
    called_card: Any = _KEEP,
    partner: Any = _KEEP,
    partner_known: Any = _KEEP,
    chien: Any = _KEEP,
    discard: Any = _KEEP,
    discarded_trumps: Any = _KEEP,
    chelem_announced: Any = _KEEP,
    poignees: Any = _KEEP,
    tricks: Any = _KEEP,
    current_trick: Any = _KEEP,
    result: Any = _KEEP,
    deal: Any = _KEEP,
    dummy: Any = _KEEP,
) -> Observation:
    """dataclasses.replace for an observation, which a bot's view makes at every event it
    folds: written field by field into a draft (:func:`~arena.games.frozen.twin`), a third of
    the generic replacer's time. A field added to :class:`Observation` must be added here
    (tests/games/test_frozen.py compares every field with dataclasses.replace)."""
    made = _new(_Draft)
    made.seat = view.seat if seat is _KEEP else seat
    made.options = view.options if options is _KEEP else options
    made.dealer = view.dealer if dealer is _KEEP else dealer
    made.phase = view.phase if phase is _KEEP else phase
    made.to_act = view.to_act if to_act is _KEEP else to_act
    made.hand = view.hand if hand is _KEEP else hand
    made.legal_actions = view.legal_actions if legal_actions is _KEEP else legal_actions
    made.bids = view.bids if bids is _KEEP else bids
    made.contract = view.contract if contract is _KEEP else contract
    made.taker = view.taker if taker is _KEEP else taker
    made.called_card = view.called_card if called_card is _KEEP else called_card
    made.partner = view.partner if partner is _KEEP else partner
    made.partner_known = view.partner_known if partner_known is _KEEP else partner_known
    made.chien = view.chien if chien is _KEEP else chien
    made.discard = view.discard if discard is _KEEP else discard
    made.discarded_trumps = view.discarded_trumps if discarded_trumps is _KEEP else discarded_trumps
    made.chelem_announced = view.chelem_announced if chelem_announced is _KEEP else chelem_announced
    made.poignees = view.poignees if poignees is _KEEP else poignees
    made.tricks = view.tricks if tricks is _KEEP else tricks
    made.current_trick = view.current_trick if current_trick is _KEEP else current_trick
    made.result = view.result if result is _KEEP else result
    made.deal = view.deal if deal is _KEEP else deal
    made.dummy = view.dummy if dummy is _KEEP else dummy
    return _become(made)


def observe(state: DealState, seat: int) -> Observation:
    """The view of ``seat``: its own cards and everything public, nothing else.

    With the dummy, the dummy's seat has its controller's view (ValueError before a player has
    taken: nobody plays it yet)."""
    if not 0 <= seat < state.seats:
        raise ValueError(f"seat {seat} is not a seat of a {state.players}-player table")
    if seat == state.dummy_seat:
        controller = state.controller(seat)
        if controller is None:
            raise ValueError(f"seat {seat} is the dummy: it sees nothing of its own, and nobody "
                             "plays it before a player takes")
        seat = controller
    over = state.phase is Phase.FINISHED
    phase = state.phase
    if phase is Phase.POIGNEE and seat != state.to_act:
        phase = Phase.PLAYING  # nobody else is told of a poignée until it is shown
    chien_shown = state.contract is not None and state.contract.chien_shown and phase in (
        Phase.DISCARDING, Phase.CHELEM, Phase.POIGNEE, Phase.PLAYING, Phase.FINISHED
    )
    called = state.called_card
    partner_known = called is not None and (
        state.partner_revealed or over or (chien_shown and bool(state.chien >> called & 1))
    )
    partner = state.partner if partner_known else None
    return Observation(
        seat=seat,
        options=state.options,
        dealer=state.dealer,
        phase=phase,
        to_act=state.to_act,
        hand=tuple(cards_of(state.hands[seat])),
        legal_actions=legal_actions(state) if state.decider == seat else (),
        bids=tuple(state.bids),
        contract=state.contract,
        taker=state.taker,
        called_card=state.called_card,
        partner=partner,
        partner_known=partner_known,
        chien=state.deal.chien if chien_shown or over else None,
        discard=tuple(cards_of(state.discard)) if seat == state.taker or over else None,
        discarded_trumps=tuple(state.discarded_trumps),
        chelem_announced=state.chelem_announced,
        poignees=tuple(state.poignees),
        tricks=tuple(state.tricks),
        current_trick=state.current_trick,
        result=state.result,
        deal=state.deal if over else None,
        dummy=(
            tuple(cards_of(state.hands[state.dummy_seat]))
            if state.dummy_seat is not None and (over or state.dummy_shown)
            else None
        ),
    )


def sealed_observation(state: DealState, seat: int) -> Observation:
    """:func:`observe` without what only the end of the deal shows, for a deal whose board is
    still being played at other tables (a competition): the deal, the chien of a Garde Sans or
    Contre, another seat's discard, the detailed result, a dummy never shown (both passed).
    Before the end it is ``observe``."""
    view = observe(state, seat)
    if not state.is_over:
        return view
    assert state.result is not None
    chien_shown = state.contract is not None and state.contract.chien_shown
    called = state.called_card
    partner_known = called is not None and (
        state.partner_revealed or (chien_shown and bool(state.chien >> called & 1))
    )
    return dataclasses.replace(
        view,
        deal=None,
        result=DealResult(state.result.outcome, state.result.scores),
        chien=view.chien if chien_shown else None,
        discard=view.discard if seat == state.taker else None,
        partner=view.partner if partner_known else None,
        partner_known=partner_known,
        dummy=view.dummy if state.dummy_shown else None,  # both passed: never shown
    )
def observation_after(observation: Observation, event: Event) -> Observation:
    """``observation`` once its seat has received ``event``: the bot side's only update rule.

    Folding it over exactly the events a seat receives (:func:`events_after`), from
    :func:`observe` at any point, gives :func:`observe` again after every action, with two
    exceptions that only other messages settle (the property test pins both):

    - ``legal_actions``: every event clears them (it follows the seat's own decision, or
      someone else's, and nobody acts twice without a new request); a decision request then
      brings the seat to act its phase, hand and legal actions (:func:`observation_asked`).
    - The end of the taker's discard: no event tells the other seats, so for them the phase and
      turn stay those of the discard until the next public event (the chelem decision, or the
      first card in the beginner variant). And what only the end of the deal reveals (the
      result, the deal, a hidden chien, the discard) comes with it
      (:func:`observation_at_end`).
    """
    return _UPDATES[type(event)](observation, event)


def observation_asked(
    observation: Observation,
    phase: Phase,
    legal: tuple[Action, ...],
    hand: tuple[Card, ...],
    seat: int,
) -> Observation:
    """``observation`` as the arena asks its seat to decide for ``seat``, the seat to act: the
    request is authoritative for the phase (a poignée's hiding is told by its request alone),
    the turn, the hand and the legal actions. With the dummy, the defender is asked for the
    dummy's seat: ``hand`` is then the dummy's, and the defender's own hand stays as it is."""
    if seat != observation.seat:
        return replace(
            observation, phase=phase, to_act=seat, dummy=tuple(sorted(hand)),
            legal_actions=legal,
        )
    return replace(
        observation, phase=phase, to_act=seat, hand=tuple(sorted(hand)), legal_actions=legal,
    )


def observation_at_end(
    observation: Observation,
    result: DealResult,
    deal: Deal | None = None,
    discard: tuple[Card, ...] = (),
) -> Observation:
    """``observation`` once the deal is over and its seat is told how it ended.

    With ``deal`` (and the taker's ``discard``) revealed, it is exactly :func:`observe` of the
    finished deal: the chien, the discard and the partner become known to all. Without them (a
    board still being played at other tables), only the result is added to what the seat knew.
    """
    changes: dict[str, Any] = {
        "phase": Phase.FINISHED, "to_act": None, "legal_actions": (), "result": result,
    }
    if deal is not None:
        changes.update(deal=deal, chien=deal.chien, discard=tuple(sorted(discard)))
        if deal.players == 2 and observation.dummy is None:  # both passed: shown as dealt
            changes["dummy"] = tuple(sorted(deal.hands[DUMMY]))
        if observation.called_card is not None:
            changes.update(partner=result.partner, partner_known=True)
    return replace(observation, **changes)


# -- one update per event: a seat's view of the rules' transitions ---------------------------
def _bid_made(view: Observation, event: BidMade) -> Observation:
    bids = (*view.bids, (event.seat, event.action))
    contract, taker, discard = view.contract, view.taker, view.discard
    if isinstance(event.action, Bid):
        contract, taker = event.action.contract, event.seat
        discard = () if taker == view.seat else None
    n = view.options.players
    if len(bids) < n:
        phase, to_act = Phase.BIDDING, (event.seat + 1) % n
    elif contract is None:
        phase, to_act = Phase.FINISHED, None
    elif n == 5:
        phase, to_act = Phase.CALLING, taker
    else:
        phase, to_act = _after_call(view, contract, taker)
    return replace(
        view, bids=bids, contract=contract, taker=taker, discard=discard, phase=phase,
        to_act=to_act, legal_actions=(),
    )


def _card_called(view: Observation, event: CardCalled) -> Observation:
    assert view.contract is not None
    phase, to_act = _after_call(view, view.contract, view.taker)
    return replace(
        view, called_card=event.card, phase=phase, to_act=to_act, legal_actions=()
    )


def _after_call(
    view: Observation, contract: Contract, taker: int | None
) -> tuple[Phase, int | None]:
    """The phase and turn once the taker is known (and has called): the discard after a chien
    shown (the chien itself comes next, as an event), else the chelem question."""
    if contract.chien_shown:
        return Phase.DISCARDING, taker
    return _ask_chelem(view, taker)


def _ask_chelem(view: Observation, taker: int | None) -> tuple[Phase, int | None]:
    if view.options.beginner:  # no chelem question: the seat after the dealer leads
        return Phase.PLAYING, first_seat(view.options.players, view.dealer)
    return Phase.CHELEM, taker


def _chien_shown(view: Observation, event: ChienShown) -> Observation:
    changes: dict[str, Any] = {"chien": event.cards, "legal_actions": ()}
    if view.called_card in event.cards:  # the taker called a card of the chien: alone
        changes.update(partner=None, partner_known=True)
    if view.seat == view.taker:
        changes["hand"] = tuple(sorted((*view.hand, *event.cards)))
    return replace(view, **changes)


def _card_discarded(view: Observation, event: CardDiscarded) -> Observation:
    discard = tuple(sorted((*(view.discard or ()), event.card)))
    changes: dict[str, Any] = {
        "hand": _without(view.hand, event.card), "discard": discard, "legal_actions": (),
    }
    if len(discard) == CHIEN_SIZES[view.options.players]:
        changes["phase"], changes["to_act"] = _ask_chelem(view, view.taker)
    return replace(view, **changes)


def _trump_discarded(view: Observation, event: TrumpDiscarded) -> Observation:
    return replace(
        view, discarded_trumps=(*view.discarded_trumps, event.card), legal_actions=()
    )


def _chelem_decided(view: Observation, event: ChelemDecided) -> Observation:
    leader = view.taker if event.announce else first_seat(view.options.players, view.dealer)
    return replace(
        view, chelem_announced=event.announce, phase=Phase.PLAYING, to_act=leader,
        legal_actions=(),
    )


def _poignee_shown(view: Observation, event: PoigneeShown) -> Observation:
    # Its player hid its last extra trump (or had none to hide): it plays now.
    return replace(
        view, poignees=(*view.poignees, event.poignee), phase=Phase.PLAYING, legal_actions=()
    )


def _card_played(view: Observation, event: CardPlayed) -> Observation:
    hand = _without(view.hand, event.card) if event.seat == view.seat else view.hand
    dummy = view.dummy
    if dummy is not None and event.card in dummy:  # the dummy's card, played by the defender
        dummy = _without(dummy, event.card)
    return replace(
        view, hand=hand, dummy=dummy, phase=Phase.PLAYING,
        to_act=(event.seat + 1) % view.options.seats,
        current_trick=(*view.current_trick, (event.seat, event.card)), legal_actions=(),
    )


def _trick_won(view: Observation, event: TrickWon) -> Observation:
    tricks = (*view.tricks, event.trick)
    over = len(tricks) == HAND_SIZES[view.options.players]
    return replace(
        view, tricks=tricks, current_trick=(),
        phase=Phase.FINISHED if over else Phase.PLAYING,
        to_act=None if over else event.trick.winner, legal_actions=(),
    )


def _partner_revealed(view: Observation, event: PartnerRevealed) -> Observation:
    return replace(
        view, partner=None if event.seat == view.taker else event.seat, partner_known=True,
        legal_actions=(),
    )


def _dummy_shown(view: Observation, event: DummyShown) -> Observation:
    # Both players learn here that the discard is laid: the phase and turn move on with it.
    changes: dict[str, Any] = {"dummy": event.cards, "legal_actions": ()}
    if view.phase is Phase.DISCARDING:
        changes["phase"], changes["to_act"] = _ask_chelem(view, view.taker)
    return replace(view, **changes)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c != card)


_UPDATES: Final[dict[type, Callable[[Observation, Any], Observation]]] = {
    BidMade: _bid_made,
    CardCalled: _card_called,
    ChienShown: _chien_shown,
    CardDiscarded: _card_discarded,
    TrumpDiscarded: _trump_discarded,
    ChelemDecided: _chelem_decided,
    PoigneeShown: _poignee_shown,
    CardPlayed: _card_played,
    TrickWon: _trick_won,
    PartnerRevealed: _partner_revealed,
    DummyShown: _dummy_shown,
}
