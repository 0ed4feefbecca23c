"""What the bids say about the hidden hands, for the search bot's draws.

The :class:`~clients.sdk.Sampler` draws every deal the rules allow with the same chance: a
taker who bid a Garde is as likely to hold three trumps as fifteen. Real players bid on their
cards, so the search reads the bids as the heuristic's rules would make them
(:func:`~clients.heuristic_bot.wanted_contract`): a draw in which a seat's dealt hand would
not have bid what it bid (or passed where it passed) is kept only with probability ``slack``,
else drawn again (up to :data:`MAX_REDRAWS` times; the last draw is kept). ``slack`` 1 trusts
the rules' uniform draws alone; 0 trusts the model entirely, which an opponent bidding by other
rules would mislead, so it is kept above 0.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from arena.games.french_tarot import Bid, Contract
from arena.games.french_tarot.cards import Hand, cards_of
from clients.heuristic_bot import wanted_contract
from clients.sdk import Sample, Sampler, TableView

MAX_REDRAWS = 8
"""Draws tried for one deal that agrees with the bids, before keeping the last one."""


@dataclass(frozen=True, slots=True)
class Spoken:
    """One seat's word in the bidding: the contract it bid (None: it passed), over ``floor``
    (the highest bid before it; None for none)."""

    seat: int
    bid: Contract | None
    floor: Contract | None


def spoken(table: TableView) -> tuple[Spoken, ...]:
    """The other seats' bids and passes, in order, each with the highest bid before it."""
    floor: Contract | None = None
    words = []
    for seat, action in table.bids:
        bid = action.contract if isinstance(action, Bid) else None
        if seat != table.seat:
            words.append(Spoken(seat, bid, floor))
        if bid is not None:
            floor = bid
    return tuple(words)


def agrees(word: Spoken, hand: Hand, players: int, contracts: Sequence[Contract]) -> bool:
    """Whether the rules would have said ``word`` holding ``hand`` (as dealt): bid the highest
    open contract the hand is worth, pass when none is open."""
    wanted = wanted_contract(cards_of(hand), players)
    open_ = [c for c in contracts if (word.floor is None or c > word.floor)
             and wanted is not None and c <= wanted]
    return word.bid == (max(open_) if open_ else None)


class BidReader:
    """Draws deals from ``sampler`` that agree with the bids of ``table`` (module docstring);
    ``seed`` makes the choice of draws kept reproducible."""

    def __init__(self, table: TableView, sampler: Sampler, slack: float, seed: int) -> None:
        self.sampler = sampler
        self.slack = slack
        self.words = spoken(table)
        self.players = table.options.players
        self.contracts = table.options.contracts
        self.rng = random.Random(seed)

    def sample(self) -> Sample:
        sample = self.sampler.sample()
        if not self.words:
            return sample
        for _ in range(MAX_REDRAWS - 1):
            hands, _ = sample.dealt_masks()
            if all(agrees(w, hands[w.seat], self.players, self.contracts) for w in self.words):
                return sample
            if self.rng.random() < self.slack:
                return sample
            sample = self.sampler.sample()
        return sample
