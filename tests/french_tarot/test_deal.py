"""Seeded deals: the documented algorithm, golden vectors, petit sec and invalid deals.

The golden vectors pin ``seeded_deal`` for ever: a change to any of them means every recorded
seed now deals different cards. ``reference_deal`` below re-implements the module docstring of
:mod:`arena.games.french_tarot.deal` in the plainest way (no bit sets, no inlined draws), so these
tests also check that the docstring describes what the code does.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import pytest

from arena.games.dealing import pack_parts
from arena.games.french_tarot import Deal, DealOutcome, GameState, Phase, deal_pack, seeded_deal
from arena.games.french_tarot.cards import EXCUSE, PETIT, format_cards, parse_cards
from arena.games.french_tarot.deal import MAX_SEED, DealStream, shuffled_pack

# --- a plain re-implementation of the module docstring -------------------------------------

REF_HAND_SIZES = {3: 24, 4: 18, 5: 15}
REF_CHIEN_SIZES = {3: 6, 4: 6, 5: 3}
REF_PACKET_SIZES = {3: 4, 4: 3, 5: 3}


def reference_words(seed: int) -> Iterator[int]:
    """Step 1: SHA-256 counter mode, read as 32-bit little-endian words."""
    block = 0
    while True:
        digest = hashlib.sha256(
            b"tarot-arena/deal/v1" + seed.to_bytes(8, "little") + block.to_bytes(4, "little")
        ).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(digest[i:i + 4], "little")
        block += 1


def reference_draw(words: Iterator[int], n: int) -> int:
    """Step 2: unbiased draw in 0..n-1 by rejection."""
    while True:
        x = next(words)
        if x < 2**32 - 2**32 % n:
            return x % n


def reference_shuffle(words: Iterator[int]) -> list[int]:
    """Step 3: Fisher-Yates from the top of the pack in card-id order."""
    pack = list(range(78))
    for i in range(77, 0, -1):
        j = reference_draw(words, i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    return pack


def reference_packets(
    pack: list[int], players: int, dealer: int
) -> tuple[list[list[int]], list[int]]:
    """Step 4: packets to the seats from the one after the dealer, chien cards one at a time."""
    size = REF_PACKET_SIZES[players]
    chien_size = REF_CHIEN_SIZES[players]
    packets = REF_HAND_SIZES[players] * players // size
    chien_after = [k * packets // (chien_size + 1) for k in range(1, chien_size + 1)]
    hands: list[list[int]] = [[] for _ in range(players)]
    chien: list[int] = []
    pos = 0
    seat = (dealer + 1) % players
    for number in range(1, packets + 1):
        hands[seat] += pack[pos:pos + size]
        pos += size
        seat = (seat + 1) % players
        for _ in range(chien_after.count(number)):
            chien.append(pack[pos])
            pos += 1
    assert pos == 78
    return hands, chien


def reference_petit_sec(hand: list[int]) -> bool:
    trumps = [c for c in hand if 56 <= c <= 76]
    return trumps == [56] and 77 not in hand


def reference_deal(
    seed: int, players: int, dealer: int = 0
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Steps 1-5: sorted hands and chien."""
    words = reference_words(seed)
    while True:
        hands, chien = reference_packets(reference_shuffle(words), players, dealer)
        if not any(reference_petit_sec(h) for h in hands):
            return tuple(tuple(sorted(h)) for h in hands), tuple(sorted(chien))


GOLDEN_DEALS = {
    (0, 3, 0): (
        (
            "2S 6S 8S QS 6H 8H 10H 3D 4D 5D 8D 10D CD QD 2C 4C 5C T4 T7 T10 T11 T12 T17 T18",
            "AS 3S 5S 9S 10S CS KS 4H 7H JH CH AD 2D 7D KD 3C 9C QC T1 T2 T8 T13 T14 EX",
            "4S 7S JS 2H 3H 5H 9H QH KH 6D 9D AC 6C 8C 10C JC CC KC T5 T9 T15 T16 T20 T21",
        ),
        "AH JD 7C T3 T6 T19",
    ),
    (0, 4, 0): (
        (
            "6S 8S QS 6H 8H 10H 3D 4D 5D 10D CD 2C 4C 5C T4 T12 T17 T18",
            "AS 3S 5S 9S 10S KS AH 4H 7H AD 2D 7D KD 9C QC T8 T14 EX",
            "4S CS 2H 3H 5H 9H JH KH 3C 7C 8C KC T1 T5 T13 T19 T20 T21",
            "2S 7S QH 6D 9D JD QD AC 6C 10C CC T6 T7 T9 T10 T11 T15 T16",
        ),
        "JS CH 8D JC T2 T3",
    ),
    (0, 5, 0): (
        (
            "AS 9H 5D 2C 3C 4C 5C 7C 9C T4 T5 T8 T9 T10 T16",
            "4S QS KS 6H KH 7D 9D QD JC QC T3 T13 T14 T15 T18",
            "5S 10S JS AH 4H 10H CD 6C 8C 10C T1 T6 T7 T12 T21",
            "6S 7S 9S 2H 5H JH AD 2D 3D 6D JD T2 T11 T17 EX",
            "2S 3S 8S 3H 7H CH QH 4D 8D 10D KD AC CC T19 T20",
        ),
        "CS 8H KC",
    ),
    (1, 3, 0): (
        (
            "AS 2S 3S 7S CS 4H JH CH QH AD 5D 6D 7D 3C 5C 8C 10C JC T1 T3 T5 T9 T12 T18",
            "5S 9S 10S QS KS AH 2H 3H 7H 8H 9H 3D QD KD 4C 9C QC T4 T6 T7 T13 T15 T20 T21",
            "4S 8S JS 5H 10H KH 2D 4D 8D 9D 10D JD CD AC 2C 6C 7C CC KC T8 T10 T14 T16 T19",
        ),
        "6S 6H T2 T11 T17 EX",
    ),
    (1, 4, 0): (
        (
            "AS 2S 3S 7S CS 4H JH QH AD 7D 3C 8C 10C JC T3 T5 T9 T12",
            "9S QS KS 2H 7H 8H 9H 3D QD KD 9C QC T4 T6 T7 T11 T13 T21",
            "5S 8S 3H 5H 10H KH 9D CD AC 2C 4C 7C CC KC T15 T17 T20 EX",
            "4S 6S 6H CH 2D 4D 5D 6D 8D JD 6C T1 T8 T10 T14 T16 T18 T19",
        ),
        "10S JS AH 10D 5C T2",
    ),
    (1, 5, 0): (
        (
            "2S 3H 10H JH CH QH AD QD KD 2C T5 T13 T14 T16 EX",
            "3S 4S 5S 9S 4H 8H KH 4D 5D 10D 9C CC T2 T4 T12",
            "8S JS KS 2H 5H 6H 6D 6C 8C 10C T6 T8 T9 T11 T15",
            "AS 6S 10S 7H 9H 7D 9D JD 4C 7C JC T7 T18 T19 T21",
            "7S CS QS AH 2D 3D 8D AC 5C QC KC T1 T3 T10 T17",
        ),
        "CD 3C T20",
    ),
    (42, 3, 0): (
        (
            "2S 3S 5S 6S 7S CS QS KS 4H 6H CH KH 3D JD 3C JC T2 T11 T13 T15 T16 T17 T19 T20",
            "AS 4S 8S AH 2H 3H 9H QH 4D 7D 8D CD AC 2C 6C 9C 10C T1 T3 T4 T6 T7 T18 T21",
            "9S 10S JS 5H 7H 8H 10H JH AD 2D 5D 6D 10D KD 4C 5C CC KC T5 T8 T10 T12 T14 EX",
        ),
        "9D QD 7C 8C QC T9",
    ),
    (42, 4, 0): (
        (
            "2S 3S 6S CS QS KS 6H CH KH 3D JD 3C T2 T11 T13 T16 T17 T19",
            "AS 8S 2H 3H QH 7D 9D CD 2C 6C 9C 10C T1 T3 T4 T6 T7 T21",
            "4S 10S AH 5H 10H JH AD 2D 4D 5D 6D 8D KD AC 4C 7C 8C T12",
            "5S 9S JS 4H 7H 10D 5C JC CC QC KC T5 T9 T10 T14 T15 T20 EX",
        ),
        "7S 8H 9H QD T8 T18",
    ),
    (42, 5, 0): (
        (
            "6S 10S JS QS AH 6H QH 3C 4C 8C 10C T3 T10 T15 T17",
            "AS 3S 4S KS 3H 10H 6D CD QD JC CC KC T7 T8 T13",
            "5S 9S 2H 5H 8H JH CH 4D 9D JD T6 T9 T14 T16 T21",
            "8S 9H KH 3D 8D KD 2C 5C 6C QC T1 T2 T5 T12 T20",
            "7S CS 4H 7H 2D 5D 7D 10D 7C 9C T4 T11 T18 T19 EX",
        ),
        "2S AD AC",
    ),
    (2**64 - 1, 3, 0): (
        (
            "2S JS AH 2H 4H JH CH AD 6D 7D 8D QD 3C 4C 10C CC T6 T10 T12 T16 T17 T18 T20 T21",
            "3S 4S 5S 6S CS KS 7H 10H 3D 4D JD CD 6C JC T1 T2 T4 T5 T7 T8 T9 T11 T15 T19",
            "AS 7S 8S 9S 10S QS 3H 5H 8H QH KH 2D 5D 9D 10D KD AC 2C 9C QC T3 T13 T14 EX",
        ),
        "6H 9H 5C 7C 8C KC",
    ),
    (2**64 - 1, 4, 0): (
        (
            "2S JS AH 2H 4H CH AD 6D 8D QD 3C 4C 10C CC T6 T12 T17 T18",
            "4S 5S 6S CS KS 7H 10H 4D JD CD 6C 8C JC T1 T5 T9 T15 T19",
            "3S 7S 9S 3H 8H 2D 3D 9D 7C QC KC T2 T3 T7 T8 T13 T14 EX",
            "AS 8S 10S QS 5H 6H JH QH KH 7D 10D AC 2C 5C 9C T10 T16 T20",
        ),
        "9H 5D KD T4 T11 T21",
    ),
    (2**64 - 1, 5, 0): (
        (
            "3S 5S 9S 10S CS AH CH 6D 2C 6C CC KC T6 T10 EX",
            "4S 7S JS QS 4H 9H 4D CD KD AC 4C T8 T13 T15 T20",
            "KS 3H 5H 6H QH AD 5D 7D 8C 10C QC T2 T9 T12 T19",
            "2H 7H 8H 10H 3D 8D 10D JD QD 5C 9C T1 T11 T14 T16",
            "AS 6S 8S JH KH 2D 3C 7C JC T3 T4 T5 T17 T18 T21",
        ),
        "2S 9D T7",
    ),
    (42, 4, 3): (
        (
            "AS 8S 2H 3H QH 7D 9D CD 2C 6C 9C 10C T1 T3 T4 T6 T7 T21",
            "4S 10S AH 5H 10H JH AD 2D 4D 5D 6D 8D KD AC 4C 7C 8C T12",
            "5S 9S JS 4H 7H 10D 5C JC CC QC KC T5 T9 T10 T14 T15 T20 EX",
            "2S 3S 6S CS QS KS 6H CH KH 3D JD 3C T2 T11 T13 T16 T17 T19",
        ),
        "7S 8H 9H QD T8 T18",
    ),
    (7, 5, 2): (
        (
            "2S 10S 4H KH 6D JD CD 3C 7C CC T5 T8 T12 T15 T19",
            "AS 5S 6S QS 9H JH 4D 5D AC 8C 10C JC T1 T3 T9",
            "JS CS AH 2H 3H CH QH 2D 7D QD 5C 9C T10 T11 EX",
            "8S 9S KS 5H 6H 7H 10D KD QC KC T6 T14 T16 T18 T21",
            "3S 4S 8H 10H AD 8D 9D 2C 4C 6C T2 T4 T13 T17 T20",
        ),
        "7S 3D T7",
    ),
    (2282333, 4, 0): (
        (
            "2S 4S 6S 10S CS KS 9H JH QH KH 3D 9D CD 5C CC T1 T15 EX",
            "3S 5S 8S QS AH 5H 7D JD 2C 4C 7C 8C 9C KC T3 T5 T11 T18",
            "2H 3H 6H 7H 8H 10H CH AD 5D 10D 6C JC QC T6 T10 T13 T17 T19",
            "7S 9S 2D 4D 6D 8D KD AC 3C 10C T2 T7 T9 T12 T14 T16 T20 T21",
        ),
        "AS JS 4H QD T4 T8",
    ),
    (3607448, 5, 0): (
        (
            "AS 5S 7H 8H 10D KD 4C 5C 7C 10C QC T2 T4 T10 EX",
            "2S 3S 10S CS 3H 5H 9H 2D 3D 8D CD 2C JC T11 T16",
            "4S 8S 6H 10H JH CH AD 4D 7D QD 6C T3 T12 T13 T17",
            "6S 7S KS AH 4H 5D 6D 9D 3C 9C CC T7 T19 T20 T21",
            "9S JS QS 2H QH KH 8C KC T1 T5 T6 T9 T14 T15 T18",
        ),
        "JD AC T8",
    ),
    (6442, 3, 0): (
        (
            "AS 3S 6S 9S JS AH 2H 5H CH 4D 8D 9D 10D AC 2C 3C 5C 8C QC T2 T8 T14 T19 EX",
            "2S 5S CS 7H 8H 9H QH KH AD 2D 3D 5D CD QD KD 6C 7C 9C 10C T13 T15 T16 T18 T21",
            "4S 7S 8S 10S QS KS 3H 4H 6H 10H JH 6D 7D JD 4C JC CC KC T1 T3 T6 T11 T12 T17",
        ),
        "T4 T5 T7 T9 T10 T20",
    ),
    (883, 4, 0): (
        (
            "2S 4S 8S 9S JS CS KS 7H 2D 6D AC 7C QC T4 T11 T13 T18 T21",
            "5S QS 4H 5H JH CH QH AD 3D 5D 7D 8D 4C 6C T12 T15 T19 T20",
            "3S 6S 7S AH 2H 8H KH CD KD 5C 8C 9C 10C T1 T3 T7 T8 EX",
            "AS 10S 3H 6H 10H 4D 9D 10D JD QD 3C JC CC T2 T6 T9 T14 T17",
        ),
        "9H 2C KC T5 T10 T16",
    ),
    (130, 5, 0): (
        (
            "8S 9S 8H CH KH 6D 9C 10C JC T2 T6 T8 T11 T12 T21",
            "AS 6S 2H 5H 6H 5D CD 4C 6C 7C QC T3 T7 T10 T20",
            "2S 10S QS KS 3H 4H 7H QH 10D QD KD AC KC T9 T15",
            "5S CS AH 9H 10H JH 2D 7D 9D JD 5C CC T13 T16 T19",
            "3S 7S JS AD 3D 4D 3C 8C T1 T4 T5 T14 T17 T18 EX",
        ),
        "4S 8D 2C",
    ),
}
"""Sorted hands (seat 0 first) and chien for (seed, players, dealer), in card notation."""


GOLDEN_PACK_SEED_0 = (
    "T14 KS QC T1 8C T21 7S 6D JD 8D 4D 8S 5D AS T8 7D T13 KH KC JS 10C T6 T11 6S T17 10D "
    "3S KD 9C 3C 7C 4S JC 9D 6C T7 CD 8H 3D 9S 2D 7H CH T19 T5 9H T16 T15 QD T18 T12 10H "
    "AH EX AD T2 CS 3H T20 CC T9 T10 2C QS 6H T3 5S 10S 4H JH 5H 2H QH AC 2S 4C 5C T4"
)
"""The shuffled pack of seed 0, top card first (step 3 alone)."""

REJECTION_SEEDS = {2282333: 47, 2301261: 53, 3607448: 9}
"""Seeds whose first shuffle rejects a word (step 2), and the ``n`` of the rejected draw."""

RESHUFFLE_SEEDS = {3: 6442, 4: 883, 5: 130}
"""Seeds whose first shuffle deals a petit sec (step 5), by player count."""


def test_golden_vectors_cover_the_rare_paths() -> None:
    """Some golden seeds go through a rejected draw and a petit-sec reshuffle."""
    for seed, n in REJECTION_SEEDS.items():
        words = reference_words(seed)
        rejected = [
            78 - index
            for index, x in zip(range(77), words, strict=False)
            if x >= 2**32 - 2**32 % (78 - index)
        ]
        assert rejected[:1] == [n]
    for players, seed in RESHUFFLE_SEEDS.items():
        hands, _ = reference_packets(reference_shuffle(reference_words(seed)), players, 0)
        assert any(reference_petit_sec(h) for h in hands)
    golden = set(GOLDEN_DEALS)
    assert (2282333, 4, 0) in golden and (3607448, 5, 0) in golden
    assert {(seed, players, 0) for players, seed in RESHUFFLE_SEEDS.items()} <= golden


@pytest.mark.parametrize(("seed", "players", "dealer"), sorted(GOLDEN_DEALS))
def test_golden_deal(seed: int, players: int, dealer: int) -> None:
    hands, chien = GOLDEN_DEALS[seed, players, dealer]
    deal = seeded_deal(seed, players, dealer)
    assert [format_cards(h) for h in deal.hands] == list(hands)
    assert format_cards(deal.chien) == chien
    assert deal.players == players and deal.dealer == dealer
    ref_hands, ref_chien = reference_deal(seed, players, dealer)
    assert deal.hands == ref_hands
    assert deal.chien == ref_chien


def test_golden_pack_seed_0() -> None:
    assert shuffled_pack(DealStream(0)) == parse_cards(GOLDEN_PACK_SEED_0)
    assert reference_shuffle(reference_words(0)) == parse_cards(GOLDEN_PACK_SEED_0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_docstring_algorithm_agrees_with_seeded_deal(players: int) -> None:
    """~200 seeds per player count, small and large, every dealer."""
    big = random.Random(players)
    seeds = [*range(150), *(big.getrandbits(64) for _ in range(50)), MAX_SEED]
    for seed in seeds:
        dealer = seed % players
        deal = seeded_deal(seed, players, dealer)
        assert (deal.hands, deal.chien) == reference_deal(seed, players, dealer), seed


@pytest.mark.parametrize("seed", sorted(REJECTION_SEEDS))
def test_real_rejection_takes_the_slow_path(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    below = DealStream.below

    def spy(self: DealStream, n: int) -> int:
        calls.append(n)
        return below(self, n)

    monkeypatch.setattr(DealStream, "below", spy)
    stream = DealStream(seed)
    words = reference_words(seed)
    assert shuffled_pack(stream) == reference_shuffle(words)
    assert calls == [REJECTION_SEEDS[seed]]
    # the stream is left exactly where the reference is: the next shuffle agrees too
    assert shuffled_pack(stream) == reference_shuffle(words)


class ScriptedStream(DealStream):
    """A DealStream reading scripted words, ``block`` at a time instead of SHA-256 blocks."""

    def __init__(self, words: list[int], block: int) -> None:
        super().__init__(0)
        self.script = iter(words)
        self.block_size = block

    def _ensure(self, count: int) -> None:
        words = self._words
        if self._pos:
            del words[: self._pos]
            self._pos = 0
        while len(words) < count:
            words.extend(next(self.script) for _ in range(self.block_size))


def _limit(n: int) -> int:
    return 2**32 - 2**32 % n


def scripted_words(rejections: dict[int, int], seed: int) -> list[int]:
    """Words for two shuffles where draw ``i`` of the first one (n = 78 - i) is preceded by
    ``rejections[i]`` rejected words; the rejected values include the limit itself."""
    rnd = random.Random(seed)
    words: list[int] = []
    for index in range(77):
        n = 78 - index
        for r in range(rejections.get(index, 0)):
            words.append(_limit(n) if r % 2 == 0 else rnd.randrange(_limit(n), 2**32))
        words.append(_limit(n) - 1 if index % 5 == 0 else rnd.randrange(_limit(n)))
    words += [rnd.randrange(2**32) for _ in range(400)]
    return words


REJECTION_SCRIPTS = [
    {0: 1},  # the very first draw
    {7: 1},  # the last word of the first block
    {8: 1},  # the first word of the second block
    {1: 3, 2: 2},  # several in a row
    {30: 1, 31: 1, 40: 4},
    {75: 1},  # n = 3
    {76: 2},  # n = 2 is a power of two: never rejected (the script skips it below)
    {i: 1 for i in range(77)},  # every draw that can reject does
]


@pytest.mark.parametrize("block", [1, 3, 8])
@pytest.mark.parametrize("script", REJECTION_SCRIPTS)
def test_inlined_draws_match_below_on_rejections(script: dict[int, int], block: int) -> None:
    """``shuffled_pack``'s inlined fast path and :meth:`DealStream.below` agree, rejections too."""
    script = {i: r for i, r in script.items() if (78 - i) & (77 - i)}  # not a power of two
    words = scripted_words(script, seed=len(script) * 10 + block)
    fast = ScriptedStream(words, block)
    slow = ScriptedStream(words, block)
    expected = reference_shuffle(iter(words))
    pack = list(range(78))
    for i in range(77, 0, -1):
        j = slow.below(i + 1)
        pack[i], pack[j] = pack[j], pack[i]
    assert pack == expected
    assert shuffled_pack(fast) == expected
    # both streams stand on the same word: a following shuffle (step 5) agrees as well
    assert shuffled_pack(fast) == shuffled_pack(slow)
    assert fast.below(2**32) == slow.below(2**32)


@pytest.mark.parametrize("n", [0, -1, 2**32 + 1])
def test_below_needs_a_drawable_bound(n: int) -> None:
    """Without the check, n = 0 or n > 2**32 would reject every word: an endless loop."""
    with pytest.raises(ValueError, match=rf"cannot draw below {n}: n must be in 1 \.\. 2\*\*32"):
        DealStream(0).below(n)
    assert DealStream(0).below(1) == 0


def test_below_rejects_the_limit_and_above() -> None:
    n = 77
    stream = ScriptedStream([_limit(n), 2**32 - 1, _limit(n) - 1, *range(100)], 1)
    assert stream.below(n) == (_limit(n) - 1) % n
    assert stream.below(n) == 0
    power_of_two = ScriptedStream([2**32 - 1, *range(100)], 1)
    assert power_of_two.below(64) == 63


# --- seats, rotation, chien positions -------------------------------------------------------

CHIEN_POSITIONS = {3: [8, 21, 30, 43, 52, 65], 4: [9, 19, 32, 42, 55, 65], 5: [18, 37, 56]}
"""Pack positions (0 = top) of the chien cards, by player count."""


@pytest.mark.parametrize("players", [3, 4, 5])
def test_chien_positions_on_an_ordered_pack(players: int) -> None:
    pack = list(range(78))
    for dealer in range(players):
        deal = deal_pack(pack, players, dealer)
        assert list(deal.chien) == CHIEN_POSITIONS[players]
        assert 0 not in deal.chien and 77 not in deal.chien
        size = REF_PACKET_SIZES[players]
        first = (dealer + 1) % players
        assert deal.hands[first][:size] == tuple(range(size))  # the first packet
        assert deal.hands[first - 1][-1] == 77  # the dealer's seat gets the last card
        ref_hands, ref_chien = reference_packets(pack, players, dealer)
        assert deal.hands == tuple(tuple(sorted(h)) for h in ref_hands)
        assert list(deal.chien) == ref_chien


@pytest.mark.parametrize("players", [3, 4, 5])
def test_chien_never_gets_the_first_or_last_card(players: int) -> None:
    rnd = random.Random(players)
    for _ in range(300):
        pack = list(range(78))
        rnd.shuffle(pack)
        dealer = rnd.randrange(players)
        deal = deal_pack(pack, players, dealer)
        assert pack[0] not in deal.chien and pack[-1] not in deal.chien
        assert pack[0] in deal.hands[(dealer + 1) % players]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_dealer_rotates_the_seats_not_the_pack(players: int) -> None:
    for seed in (0, 5, 99):
        base = seeded_deal(seed, players, 0)
        for dealer in range(players):
            deal = seeded_deal(seed, players, dealer)
            assert deal.chien == base.chien
            for k in range(players):
                assert deal.hands[(dealer + 1 + k) % players] == base.hands[(1 + k) % players]


def test_seeded_deal_is_deterministic_and_seed_dependent() -> None:
    assert seeded_deal(12345, 4) == seeded_deal(12345, 4)
    assert seeded_deal(12345, 4) != seeded_deal(12346, 4)
    assert seeded_deal(0, 4) != seeded_deal(MAX_SEED, 4)


# --- petit sec --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_seeded_deal_is_never_petit_sec(players: int) -> None:
    seeds = [*range(2000), RESHUFFLE_SEEDS[players]]
    for seed in seeds:
        deal = seeded_deal(seed, players, seed % players)
        assert deal.petit_sec_seats() == []
        assert not any(reference_petit_sec(list(h)) for h in deal.hands)


def petit_sec_deal(players: int, seat: int, with_excuse: bool = False) -> Deal:
    """A deal where ``seat``'s only trump is the Petit (and the Excuse when asked)."""
    size = REF_HAND_SIZES[players]
    plain = list(range(56))
    mine = [PETIT, *([EXCUSE] if with_excuse else []), *plain[: size - 1 - with_excuse]]
    rest = [c for c in range(78) if c not in mine]
    hands: list[list[int]] = []
    for s in range(players):
        if s == seat:
            hands.append(mine)
        else:
            hands.append(rest[:size])
            rest = rest[size:]
    return Deal(players, 0, tuple(tuple(h) for h in hands), tuple(rest))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_petit_sec_deal_is_over_at_once(players: int) -> None:
    seat = players - 1
    deal = petit_sec_deal(players, seat)
    assert deal.petit_sec_seats() == [seat]
    state = GameState(deal)
    assert state.phase is Phase.FINISHED and state.is_over
    assert state.to_act is None
    assert state.result is not None
    assert state.result.outcome is DealOutcome.PETIT_SEC
    assert state.result.scores == (0,) * players
    assert state.result.petit_sec_seat == seat
    assert state.result.taker is None and state.result.summary is None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_petit_with_the_excuse_is_not_petit_sec(players: int) -> None:
    deal = petit_sec_deal(players, 0, with_excuse=True)
    assert deal.petit_sec_seats() == []
    state = GameState(deal)
    assert state.phase is Phase.BIDDING and state.result is None


# --- invalid deals ----------------------------------------------------------------------------


def _good_hands(players: int = 4) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
    deal = seeded_deal(0, players)
    return list(deal.hands), deal.chien


def test_deal_sorts_hands_and_chien() -> None:
    hands, chien = _good_hands()
    deal = Deal(4, 2, tuple(tuple(reversed(h)) for h in hands), tuple(reversed(chien)))
    assert deal.hands == tuple(hands) and deal.chien == chien
    assert deal.describe().splitlines()[0] == "seat 0: " + format_cards(hands[0])
    assert deal.describe().splitlines()[-1] == "chien: " + format_cards(chien)


@pytest.mark.parametrize("players", [1, 6, 0])
def test_bad_player_count(players: int) -> None:
    with pytest.raises(ValueError, match=f"3, 4 or 5 players, not {players}"):
        Deal(players, 0, (), ())
    with pytest.raises(ValueError, match=f"3, 4 or 5 players, not {players}"):
        deal_pack(list(range(78)), players, 0)
    with pytest.raises(ValueError, match=f"3, 4 or 5 players, not {players}"):
        seeded_deal(0, players)


@pytest.mark.parametrize("dealer", [-1, 4, 7])
def test_bad_dealer(dealer: int) -> None:
    hands, chien = _good_hands()
    with pytest.raises(ValueError, match=f"dealer seat {dealer} is not a seat of a 4-player"):
        Deal(4, dealer, tuple(hands), chien)
    with pytest.raises(ValueError, match=f"dealer seat {dealer}"):
        seeded_deal(0, 4, dealer)


def test_wrong_number_of_hands() -> None:
    hands, chien = _good_hands()
    with pytest.raises(ValueError, match="3 hands for 4 players"):
        Deal(4, 0, tuple(hands[:3]), chien)


def test_wrong_hand_size() -> None:
    hands, chien = _good_hands()
    moved = hands[1][0]
    hands[1] = hands[1][1:]
    with pytest.raises(ValueError, match="seat 1 holds 17 cards, a 4-player hand has 18"):
        Deal(4, 0, tuple(hands), (*chien, moved))


def test_wrong_chien_size() -> None:
    hands, chien = _good_hands(5)
    with pytest.raises(ValueError, match="the chien has 2 cards, it must have 3 with 5 players"):
        Deal(5, 0, tuple(hands), chien[:2])


def test_duplicated_card() -> None:
    hands, chien = _good_hands()
    hands[2] = (*hands[2][:-1], hands[0][0])
    with pytest.raises(ValueError, match=f"dealt more than once: {format_cards(hands[0][:1])}"):
        Deal(4, 0, tuple(hands), chien)


@pytest.mark.parametrize("bad", [78, -1, "KS", 1.0, None])
def test_not_a_card(bad: object) -> None:
    hands, chien = _good_hands()
    hands[3] = (*hands[3][:-1], bad)  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"is not a card id"):
        Deal(4, 0, tuple(hands), chien)


@pytest.mark.parametrize(
    "pack",
    [list(range(77)), [*range(77), 0], [*range(78), 0], list(range(1, 79))],
    ids=["77 cards", "a repeated card", "79 cards", "card 78"],
)
def test_deal_pack_needs_the_whole_pack(pack: list[int]) -> None:
    with pytest.raises(ValueError, match="a pack must hold each of the 78 cards once"):
        deal_pack(pack, 4, 0)


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True, None])
def test_bad_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=r"is not an integer in 0 \.\. 2\*\*64 - 1"):
        seeded_deal(seed, 4)  # type: ignore[arg-type]


def test_extreme_seeds_are_accepted() -> None:
    assert seeded_deal(0, 3).players == 3
    assert seeded_deal(MAX_SEED, 3).players == 3
    assert MAX_SEED == 2**64 - 1


def test_deal_pack_takes_a_tuple_as_a_list() -> None:
    pack = shuffled_pack(DealStream(5))
    assert deal_pack(tuple(pack), 4, 1) == deal_pack(pack, 4, 1)  # type: ignore[arg-type]


def test_the_cut_sorts_each_part_and_masks_it_as_the_plain_way() -> None:
    """The compiled cut (arena.games.dealing_core) against sorted item getters and a sum of
    bits, parts of every size and masks on both sides of its 62-bit halves."""
    rnd = random.Random(27)
    for _ in range(20):
        places = list(range(78))
        rnd.shuffle(places)
        bounds = sorted(2 * b for b in rnd.sample(range(1, 38), 3))  # parts of 2 cards or more
        positions = [places[a:b] for a, b in zip([0, *bounds], [*bounds, 78], strict=True)]
        pack = list(range(78))
        rnd.shuffle(pack)
        parts, masks = pack_parts(positions, 78)(pack)
        assert parts == tuple(tuple(sorted(pack[p] for p in part)) for part in positions)
        assert masks == tuple(sum(1 << c for c in part) for part in parts)


@pytest.mark.parametrize("positions", [[[0, 1], [2, 3]], [[0, 1, 2], [2, 3, 4]], [[0, 1], [3, 4]]],
                         ids=["too few places", "a place twice", "a place missing"])
def test_pack_parts_needs_every_place_once(positions: list[list[int]]) -> None:
    with pytest.raises(ValueError, match="must take each of the 5 places of the pack once"):
        pack_parts(positions, 5)
