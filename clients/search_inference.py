"""What the bids say about the hands: draws for the card search that agree with the bidding.

The sampler (:class:`~clients.sdk.Sampler`) draws uniformly among the deals the rules allow, and
the rules say nothing about the bids: in its draws a taker who bid a Garde holds a random hand
of what is left, most often far weaker than the one it bid on, and a seat that passed may hold a
Garde Sans. The search then plays against opponents who are not there. Here a draw is kept only
when each other seat's dealt hand is worth what it said by the club count a sensible player
bids by (:func:`~clients.heuristic_bot.wanted_contract`): a seat that bid holds a hand worth at
least that contract, a seat that passed one worth no more than the contract already bid before
it spoke (or nothing). A position where no draw of a few agrees (a bidder that bids by other
rules) takes the draw that disagrees least, so the search never waits on a hand that cannot be.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.games.french_tarot import Action, Bid, Contract, TableOptions
from arena.games.french_tarot.cards import Hand, cards_of
from clients.heuristic_bot import wanted_contract
from clients.sdk import Sample, Sampler

TRIES = 6
"""Draws made at most for one kept draw: the first that agrees with every bid, else the one
that disagrees with fewest (each costs a sampler's draw, about a quarter of a draw's time)."""


def bid_ranges(
    bids: Sequence[tuple[int, Action]], me: int
) -> list[tuple[int, Contract | None, Contract | None]]:
    """For each other seat that spoke: (seat, the least contract its hand must be worth, the
    most it may be worth); None for "none" (at least: none needed; at most: the seat passed
    with nothing bid before it, so its hand was worth no contract)."""
    ranges: list[tuple[int, Contract | None, Contract | None]] = []
    highest: Contract | None = None
    for seat, action in bids:
        if isinstance(action, Bid):
            if seat != me:
                ranges.append((seat, action.contract, None))
            highest = action.contract
        elif seat != me:
            ranges.append((seat, None, highest))
    return ranges


def disagreements(
    sample: Sample, ranges: Sequence[tuple[int, Contract | None, Contract | None]]
) -> int:
    """How many seats' dealt hands in ``sample`` are worth a contract outside their range."""
    if not ranges:
        return 0
    hands, _ = sample.dealt_masks()
    return hands_disagreeing(hands, sample.view.options, ranges)


def hands_disagreeing(
    hands: Sequence[Hand], options: TableOptions,
    ranges: Sequence[tuple[int, Contract | None, Contract | None]],
) -> int:
    """How many seats' dealt ``hands`` (masks, by seat) are worth a contract outside their
    range (:func:`bid_ranges`); in the beginner variant a hand is worth a Garde at most."""
    count = 0
    for seat, least, most in ranges:
        wanted = wanted_contract(cards_of(hands[seat]), options.players)
        if options.beginner and wanted is not None:
            wanted = min(wanted, Contract.GARDE)
        count += not _within(wanted, least, most)
    return count


def _within(wanted: Contract | None, least: Contract | None, most: Contract | None) -> bool:
    """Whether a hand worth ``wanted`` may have said what gave (``least``, ``most``)."""
    if least is not None:
        return wanted is not None and wanted >= least
    return wanted is None or (most is not None and wanted <= most)


def agreeing_sample(
    sampler: Sampler, ranges: Sequence[tuple[int, Contract | None, Contract | None]],
    tries: int = TRIES,
) -> Sample:
    """A draw that agrees with the bids (``ranges``, :func:`bid_ranges`), or of ``tries`` draws
    the one that disagrees with fewest. Raises what :meth:`Sampler.sample` raises."""
    best = sampler.sample()
    if not ranges:
        return best
    fewest = disagreements(best, ranges)
    for _ in range(tries - 1):
        if not fewest:
            break
        sample = sampler.sample()
        count = disagreements(sample, ranges)
        if count < fewest:
            best, fewest = sample, count
    return best
