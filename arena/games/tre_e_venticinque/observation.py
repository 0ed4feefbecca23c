"""What one seat may see of a deal, and the update rule from the events (:mod:`.events`).

Hidden from a seat until the deal ends: the other hands, the three cards the dealer takes up
and the dealer's discard (the dealer sees its own). Everything else is public: the cards played,
each trick's winner, the cards each seat has taken (tricks are won face up at this table's
speed: every card in them was played in view), the Matto's exchange, which is made from the
holder's tricks, never from the discard, so it shows no hidden card.

Events (each with its recipient: a seat, or :data:`~arena.games.base.EVERYONE`):

- :class:`CardDiscarded` to the dealer alone, one per card laid face down;
- :class:`DiscardDone` to everyone once the third is laid: play begins;
- :class:`CardPlayed` and, after the third card of a trick, :class:`TrickWon`, to everyone.

The end of the deal is told by the arena's table end: :func:`observation_at_end` adds the result
(and the cards, when they are revealed).

:func:`observation_after` is a seat's observation after one event it received, built with the
engine's own helpers (:func:`~.game.collect_trick`, :func:`~.game.legal_play_mask`); after the
events of each action it equals :func:`observe`, the legal actions of the seat to act included,
which a property test checks over thousands of deals.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from ..frozen import twin
from .actions import DISCARDS, Action
from .cards import Card, cards_of, mask_of
from .deal import PLAYERS, TALON_SIZE, Deal
from .events import (
    CardDiscarded,
    CardPlayed,
    DiscardDone,
    Event,
    TrickWon,
    event_mark,
    events_after,
)
from .game import (
    TRICKS,
    DealResult,
    DealState,
    MattoDebt,
    MattoExchange,
    Phase,
    Trick,
    collect_trick,
    discardable_mask,
    legal_actions,
    legal_play_mask,
    plays_of,
    trick_follow,
)


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    """This seat's cards now, ascending (the dealer's 28 while it discards)."""
    legal_actions: tuple[Action, ...]
    """Empty unless this seat is to act."""
    discard: tuple[Card, ...] | None
    """The dealer's discard so far: the dealer's own view, or everyone's once revealed at the
    end; None for the other seats."""
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, Card], ...]
    """(seat, card) in play order."""
    piles: tuple[tuple[Card, ...], ...]
    """By seat: the cards it has taken so far, the Matto's exchange applied."""
    tricks_won: tuple[int, ...]
    matto_exchange: MattoExchange | None
    matto_debt: MattoDebt | None
    result: DealResult | None
    deal: Deal | None
    """The whole deal, revealed once it is over (never in a sealed observation)."""




_Draft, _become = twin(Observation)
_KEEP: Final[Any] = object()
_new: Final = object.__new__


def replace(
    view: Observation,
    /,
    *,
    seat: Any = _KEEP,
    dealer: Any = _KEEP,
    phase: Any = _KEEP,
    to_act: Any = _KEEP,
    hand: Any = _KEEP,
    legal_actions: Any = _KEEP,
    discard: Any = _KEEP,
    tricks: Any = _KEEP,
    current_trick: Any = _KEEP,
    piles: Any = _KEEP,
    tricks_won: Any = _KEEP,
    matto_exchange: Any = _KEEP,
    matto_debt: Any = _KEEP,
    result: Any = _KEEP,
    deal: Any = _KEEP,
) -> Observation:
    """dataclasses.replace for an observation, which a bot's view makes at every event it
    folds: written field by field into a draft (:func:`~arena.games.frozen.twin`), a third of
    the generic replacer's time. A field added to :class:`Observation` must be added here
    (tests/games/test_frozen.py compares every field with dataclasses.replace)."""
    made = _new(_Draft)
    made.seat = view.seat if seat is _KEEP else seat
    made.dealer = view.dealer if dealer is _KEEP else dealer
    made.phase = view.phase if phase is _KEEP else phase
    made.to_act = view.to_act if to_act is _KEEP else to_act
    made.hand = view.hand if hand is _KEEP else hand
    made.legal_actions = view.legal_actions if legal_actions is _KEEP else legal_actions
    made.discard = view.discard if discard is _KEEP else discard
    made.tricks = view.tricks if tricks is _KEEP else tricks
    made.current_trick = view.current_trick if current_trick is _KEEP else current_trick
    made.piles = view.piles if piles is _KEEP else piles
    made.tricks_won = view.tricks_won if tricks_won is _KEEP else tricks_won
    made.matto_exchange = view.matto_exchange if matto_exchange is _KEEP else matto_exchange
    made.matto_debt = view.matto_debt if matto_debt is _KEEP else matto_debt
    made.result = view.result if result is _KEEP else result
    made.deal = view.deal if deal is _KEEP else deal
    return _become(made)


def observe(state: DealState, seat: int) -> Observation:
    """The view of ``seat``: its own cards and everything public, and, once the deal is over,
    the whole deal."""
    view = sealed_observation(state, seat)
    if state.result is None:
        return view
    return replace(view, discard=tuple(cards_of(state.discard)), deal=state.deal)


def sealed_observation(state: DealState, seat: int) -> Observation:
    """:func:`observe` without what only the deal's end reveals (the hands as dealt, the
    discard), for a board still being played at other tables."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
        raise ValueError(f"seat {seat!r} is not a seat of a 3-player table")
    return Observation(
        seat=seat,
        dealer=state.dealer,
        phase=state.phase,
        to_act=state.to_act,
        hand=tuple(cards_of(state.hands[seat])),
        legal_actions=legal_actions(state) if state.to_act == seat else (),
        discard=tuple(cards_of(state.discard)) if seat == state.dealer else None,
        tricks=tuple(state.tricks),
        current_trick=state.current_trick,
        piles=tuple(tuple(cards_of(pile)) for pile in state.piles),
        tricks_won=tuple(state.tricks_won),
        matto_exchange=state.exchange,
        matto_debt=state.debt,
        result=state.result,
        deal=None,
    )


def _with_legal(view: Observation) -> Observation:
    """``view`` with the legal actions the engine would list for its seat."""
    if view.to_act != view.seat or view.phase is Phase.FINISHED:
        return replace(view, legal_actions=())
    hand = mask_of(view.hand)
    legal: tuple[Action, ...]
    if view.phase is Phase.DISCARDING:
        left = TALON_SIZE - len(view.discard or ())
        legal = tuple(DISCARDS[c] for c in cards_of(discardable_mask(hand, left)))
    else:
        follow = trick_follow(tuple(card for _, card in view.current_trick))
        legal = plays_of(legal_play_mask(hand, follow, view.tricks_won[view.seat] > 0))
    return replace(view, legal_actions=legal)


_NOT_MINE: Final = "an event about a seat's own cards reached another seat"


def observation_after(view: Observation, event: Event) -> Observation:
    """``view`` after one event its seat received: the bot side's only update rule.

    Raises ValueError for an event that cannot follow ``view`` (a card the seat does not hold,
    a trick that does not continue the deal), so a view never silently drifts from the table.
    """
    if isinstance(event, CardPlayed):
        hand = view.hand
        if event.seat == view.seat:
            if event.card not in hand:
                raise ValueError(f"seat {view.seat} played card {event.card}, not in its hand")
            hand = tuple(c for c in hand if c != event.card)
        trick = (*view.current_trick, (event.seat, event.card))
        to_act = (event.seat + 1) % PLAYERS if len(trick) < PLAYERS else None
        return _with_legal(replace(view, hand=hand, current_trick=trick, to_act=to_act))
    if isinstance(event, TrickWon):
        if event.index != len(view.tricks):
            raise ValueError(f"trick {event.index} follows trick {len(view.tricks) - 1}")
        piles = [mask_of(pile) for pile in view.piles]
        won = list(view.tricks_won)
        debt, exchange, _ = collect_trick(piles, won, view.matto_debt, event.index, event.trick)
        last = event.index == TRICKS - 1
        return _with_legal(replace(
            view,
            tricks=(*view.tricks, event.trick),
            current_trick=(),
            piles=tuple(tuple(cards_of(pile)) for pile in piles),
            tricks_won=tuple(won),
            matto_exchange=exchange or view.matto_exchange,
            matto_debt=debt,
            to_act=None if last else event.trick.winner,
        ))
    if isinstance(event, CardDiscarded):
        if view.seat != view.dealer:
            raise ValueError(_NOT_MINE)
        if event.card not in view.hand:
            raise ValueError(f"the dealer discarded card {event.card}, not in its hand")
        return _with_legal(replace(
            view,
            hand=tuple(c for c in view.hand if c != event.card),
            discard=tuple(sorted((*(view.discard or ()), event.card))),
        ))
    if isinstance(event, DiscardDone):
        first = (event.dealer + 1) % PLAYERS
        return _with_legal(replace(view, phase=Phase.PLAYING, to_act=first))
    raise ValueError(f"{event!r} is not an event of Tre e Venticinque")


def observation_asked(
    view: Observation, phase: Phase, legal: tuple[Action, ...], hand: tuple[Card, ...]
) -> Observation:
    """``view`` as the arena asks its seat to decide: the request is authoritative for the
    phase, the turn, the hand and the legal actions (it agrees with the events when nothing
    was lost on the way)."""
    return replace(view, phase=phase, to_act=view.seat, hand=tuple(sorted(hand)),
                   legal_actions=legal)


def observation_at_end(
    view: Observation,
    result: DealResult,
    deal: Deal | None = None,
    discard: tuple[Card, ...] = (),
) -> Observation:
    """``view`` once the deal is over and its seat is told how it ended.

    With the ``deal`` and the dealer's ``discard`` revealed, it is exactly :func:`observe` of the
    finished deal; without them (a board still played at other tables), :func:`sealed_observation`
    but for the result, which is what the seat was told.
    """
    changes: dict[str, object] = {
        "phase": Phase.FINISHED, "to_act": None, "legal_actions": (), "result": result,
    }
    if deal is not None:
        changes.update(deal=deal, discard=tuple(sorted(discard)))
    return replace(view, **changes)


__all__ = [
    "CardDiscarded",
    "CardPlayed",
    "DiscardDone",
    "Event",
    "Observation",
    "TrickWon",
    "event_mark",
    "events_after",
    "observation_after",
    "observation_asked",
    "observation_at_end",
    "observe",
    "sealed_observation",
]
