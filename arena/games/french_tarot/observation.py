"""What one seat may see of a deal: the only view of the state that leaves the engine for a bot.

Hidden until the deal ends: the other hands, a chien that is not shown (Garde Sans, Garde
Contre), the taker's discard (except the trumps in it, which are shown to all; the taker sees
the whole discard), with five players, who holds the called card until it is played, and a
poignée until it is shown (while its player chooses the trumps to hide, the others see the
playing phase).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .actions import Action, Contract
from .cards import Card, cards_of
from .deal import Deal
from .game import (
    DealResult,
    GameState,
    Phase,
    ShownPoignee,
    TableOptions,
    Trick,
    legal_actions,
)


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    options: TableOptions
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    legal_actions: tuple[Action, ...]
    """Empty unless this seat is to act."""
    bids: tuple[tuple[int, Action], ...]
    contract: Contract | None
    taker: int | None
    called_card: Card | None
    partner: int | None
    """The taker's partner once known to all (5 players); None while unknown or if alone."""
    partner_known: bool
    """Whether the table knows who partners the taker: the called card was played, or it lay in
    the chien shown to all. With ``partner`` None it then means the taker plays alone."""
    chien: tuple[Card, ...] | None
    """The chien once shown to all (Petite, Garde)."""
    discard: tuple[Card, ...] | None
    """The taker's own discard; None for every other seat."""
    discarded_trumps: tuple[Card, ...]
    chelem_announced: bool
    poignees: tuple[ShownPoignee, ...]
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, Card], ...]
    result: DealResult | None
    deal: Deal | None
    """The whole deal, revealed once it is over."""


def observe(state: GameState, seat: int) -> Observation:
    """The view of ``seat``: its own cards and everything public, nothing else."""
    if not 0 <= seat < state.players:
        raise ValueError(f"seat {seat} is not a seat of a {state.players}-player table")
    over = state.phase is Phase.FINISHED
    phase = state.phase
    if phase is Phase.POIGNEE and seat != state.to_act:
        phase = Phase.PLAYING  # nobody else is told of a poignée until it is shown
    chien_shown = state.contract is not None and state.contract.chien_shown and phase in (
        Phase.DISCARDING, Phase.CHELEM, Phase.PLAYING, Phase.FINISHED
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
        legal_actions=legal_actions(state) if state.to_act == seat else (),
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
    )


def sealed_observation(state: GameState, seat: int) -> Observation:
    """:func:`observe` without what only the end of the deal shows, for a deal whose board is
    still being played at other tables (a competition): the deal, the chien of a Garde Sans or
    Contre, another seat's discard, the detailed result. Before the end it is ``observe``."""
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
    )
