"""The value of what one seat may see of a deal (:class:`Observation`), apart from the rules
that make and update it (:mod:`.observation`, compiled by mypyc: arena/native.py). A plain
frozen dataclass, kept out of the compiled engine as the other values are (``values.py``): it
crosses processes (pickled), is read by its type hints (arena.games.jsonform) and is copied by
:func:`arena.games.frozen.twin`'s ``__class__`` assignment, which a compiled class would not
allow."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Contract
from .cards import Card
from .deal import Deal
from .game import DealResult, Phase, ShownPoignee, TableOptions, Trick


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    options: TableOptions
    dealer: int
    phase: Phase
    to_act: int | None
    hand: tuple[Card, ...]
    legal_actions: tuple[Action, ...]
    """Empty unless this seat decides now: it is to act, or (the defender, with the dummy) the
    dummy it plays is; ``to_act`` says which."""
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
    dummy: tuple[Card, ...] | None = None
    """With the dummy: its cards now, once shown to both players; None before (and at 3-5
    player tables)."""
