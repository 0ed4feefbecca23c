"""score_deal and settle as a stand-alone score calculator (RULES.md, 'Scoring one deal')."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.games.french_tarot import (
    Contract,
    DealSummary,
    PoigneeLevel,
    ScoreBreakdown,
    Side,
    score_deal,
    settle,
)

GARDE = Contract.GARDE


def summary(
    points: float | str = 50,
    bouts: int = 2,
    contract: Contract = GARDE,
    players: int = 4,
    **fields: object,
) -> DealSummary:
    return DealSummary.with_points(
        points, players=players, contract=contract, bouts=bouts, **fields
    )


# --- the worked example -----------------------------------------------------------------------


def test_worked_example_of_the_rules() -> None:
    """Garde, 49 points, 2 bouts, simple poignée, petit au bout to the taker: X = 106."""
    s = summary(
        49, bouts=2, petit_au_bout=Side.TAKER, poignees=(PoigneeLevel.SIMPLE,)
    )
    b = score_deal(s)
    assert b == ScoreBreakdown(
        target=41,
        won=True,
        margin=8,
        contract_points=66,
        petit_au_bout=20,
        poignee=20,
        chelem=0,
        per_defender=106,
        taker=318,
        partner=0,
        defender=-106,
    )
    assert settle(s, taker=0) == (318, -106, -106, -106)
    assert settle(s, taker=2) == (-106, -106, 318, -106)


# --- targets, margin and rounding -------------------------------------------------------------


@pytest.mark.parametrize(("bouts", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_target_by_bouts(bouts: int, target: int) -> None:
    assert score_deal(summary(60, bouts=bouts)).target == target


@pytest.mark.parametrize(("bouts", "target"), [(0, 56), (1, 51), (2, 41), (3, 36)])
def test_exactly_the_target_wins_by_zero(bouts: int, target: int) -> None:
    b = score_deal(summary(target, bouts=bouts, contract=Contract.PETITE))
    assert b.won and b.margin == 0
    assert b.contract_points == 25 and b.per_defender == 25
    lost = score_deal(summary(Fraction(2 * target - 1, 2), bouts=bouts, contract=Contract.PETITE))
    assert not lost.won and lost.margin == 1 and lost.per_defender == -26


@pytest.mark.parametrize(
    ("points", "signed_margin"),
    [
        ("41.5", 1),  # +0.5 counts as 1
        ("40.5", -1),  # -0.5 counts as -1
        ("42.5", 2),  # +1.5 -> 2
        ("39.5", -2),  # -1.5 -> -2
        ("41", 0),
        ("42", 1),
        ("40", -1),
        ("91", 50),
        ("0", -41),
        ("0.5", -41),  # -40.5 -> -41
    ],
)
def test_half_point_goes_to_the_winner(points: str, signed_margin: int) -> None:
    b = score_deal(summary(points, bouts=2, contract=Contract.PETITE))
    assert (b.margin if b.won else -b.margin) == signed_margin
    assert b.won == (signed_margin >= 0)
    assert b.per_defender == (25 + abs(signed_margin)) * (1 if b.won else -1)


@pytest.mark.parametrize(
    ("contract", "multiplier"),
    [
        (Contract.PETITE, 1),
        (Contract.GARDE, 2),
        (Contract.GARDE_SANS, 4),
        (Contract.GARDE_CONTRE, 6),
    ],
)
def test_multiplier_per_contract(contract: Contract, multiplier: int) -> None:
    assert contract.multiplier == multiplier
    won = score_deal(summary(51, bouts=2, contract=contract))  # margin 10
    assert won.contract_points == 35 * multiplier == won.per_defender
    lost = score_deal(summary(31, bouts=2, contract=contract))  # margin -10
    assert lost.contract_points == -35 * multiplier == lost.per_defender


def test_contract_order_and_chien() -> None:
    assert list(Contract) == sorted(Contract)
    assert [c.chien_shown for c in Contract] == [True, True, False, False]
    assert [c.label for c in Contract] == ["petite", "garde", "garde-sans", "garde-contre"]


# --- petit au bout, poignée, chelem -----------------------------------------------------------


@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize(
    ("points", "side", "expected_base", "expected_petit"),
    [
        (51, Side.TAKER, 35, 10),  # won, petit to the taker
        (51, Side.DEFENCE, 35, -10),  # won, petit to the defence
        (31, Side.TAKER, -35, 10),  # lost, petit to the taker anyway
        (31, Side.DEFENCE, -35, -10),  # lost, petit to the defence
        (51, None, 35, 0),
    ],
)
def test_petit_au_bout_goes_to_the_side_that_won_it(
    contract: Contract, points: int, side: Side | None, expected_base: int, expected_petit: int
) -> None:
    b = score_deal(summary(points, bouts=2, contract=contract, petit_au_bout=side))
    m = contract.multiplier
    assert b.petit_au_bout == expected_petit * m
    assert b.per_defender == (expected_base + expected_petit) * m


@pytest.mark.parametrize("contract", list(Contract))
def test_poignee_goes_to_the_winner_and_is_not_multiplied(contract: Contract) -> None:
    m = contract.multiplier
    levels = (PoigneeLevel.SIMPLE, PoigneeLevel.DOUBLE)
    won = score_deal(summary(51, contract=contract, poignees=levels))
    assert won.poignee == 50
    assert won.per_defender == 35 * m + 50
    lost = score_deal(summary(31, contract=contract, poignees=levels))
    assert lost.poignee == -50
    assert lost.per_defender == -35 * m - 50
    triple = score_deal(summary(51, contract=contract, poignees=(PoigneeLevel.TRIPLE,)))
    assert triple.poignee == 40
    assert [int(level) for level in PoigneeLevel] == [20, 30, 40]


@pytest.mark.parametrize(
    ("points", "announced", "chelem", "bonus"),
    [
        (91, True, Side.TAKER, 400),  # announced and made
        (91, False, Side.TAKER, 200),  # made unannounced
        (80, True, None, -200),  # announced and failed
        (0, False, Side.DEFENCE, -200),  # the defence takes every trick
        (0, True, Side.DEFENCE, -400),  # announced, failed, and the defence took all
        (80, False, None, 0),
    ],
)
def test_chelem_bonus(points: int, announced: bool, chelem: Side | None, bonus: int) -> None:
    s = summary(points, bouts=3, chelem_announced=announced, chelem=chelem)
    b = score_deal(s)
    assert b.chelem == bonus
    assert b.per_defender == b.contract_points + bonus
    assert b.taker == 3 * b.per_defender
    assert settle(s, 1)[0] == -b.per_defender


def test_defence_chelem_pays_each_defender_200_more() -> None:
    plain = summary(2, bouts=0)
    slam = summary(2, bouts=0, chelem=Side.DEFENCE)
    assert [a - b for a, b in zip(settle(slam, 0), settle(plain, 0), strict=True)] == [
        -600,
        200,
        200,
        200,
    ]


def test_every_term_at_once() -> None:
    s = summary(
        "91",
        bouts=3,
        contract=Contract.GARDE_CONTRE,
        players=5,
        petit_au_bout=Side.TAKER,
        poignees=(PoigneeLevel.TRIPLE, PoigneeLevel.SIMPLE),
        chelem_announced=True,
        chelem=Side.TAKER,
        taker_alone=True,
    )
    b = score_deal(s)
    assert b.margin == 55
    assert b.per_defender == (25 + 55 + 10) * 6 + 60 + 400 == 1000
    assert settle(s, 3) == (-1000, -1000, -1000, 4000, -1000)


# --- settlement -------------------------------------------------------------------------------


def test_settlement_three_players() -> None:
    s = summary(51, players=3)  # X = 70
    assert score_deal(s).per_defender == 70
    assert settle(s, 0) == (140, -70, -70)
    assert settle(s, 2) == (-70, -70, 140)


def test_settlement_four_players() -> None:
    s = summary(31, players=4)  # X = -70
    assert settle(s, 1) == (70, -210, 70, 70)


def test_settlement_five_players_with_a_partner() -> None:
    s = summary(51, players=5)
    b = score_deal(s)
    assert (b.taker, b.partner, b.defender) == (140, 70, -70)
    assert settle(s, 0, partner=3) == (140, -70, -70, 70, -70)
    assert settle(s, 4, partner=0) == (70, -70, -70, -70, 140)


def test_settlement_five_players_alone() -> None:
    s = summary(51, players=5, taker_alone=True)
    assert score_deal(s).taker == 280 and score_deal(s).partner == 0
    assert settle(s, 2) == (-70, -70, 280, -70, -70)
    assert settle(s, 2, partner=2) == (-70, -70, 280, -70, -70)  # called one's own king


def test_settle_rejects_bad_seats() -> None:
    with pytest.raises(ValueError, match="taker seat 4 is not a seat of a 4-player table"):
        settle(summary(51), 4)
    with pytest.raises(ValueError, match="taker seat -1 is not a seat of a 3-player table"):
        settle(summary(51, players=3), -1)
    with pytest.raises(ValueError, match="partner seat 5 is not a seat of a 5-player table"):
        settle(summary(51, players=5), 0, partner=5)
    with pytest.raises(ValueError, match="only 5-player deals have a partner"):
        settle(summary(51), 0, partner=1)
    with pytest.raises(ValueError, match="taker_alone does not match the partner"):
        settle(summary(51, players=5), 0)
    with pytest.raises(ValueError, match="taker_alone does not match the partner"):
        settle(summary(51, players=5, taker_alone=True), 0, partner=1)


# --- invalid summaries, points from a score sheet ---------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"players": 6}, r"scored for 2 \(with the dummy\), 3, 4 or 5 players, not 6"),
        ({"players": 1}, r"scored for 2 \(with the dummy\), 3, 4 or 5 players, not 1"),
        ({"contract": 2}, "2 is not a contract"),
        ({"contract": "garde"}, "'garde' is not a contract"),
        ({"taker_half_points": -1}, r"taker points -1/2 are not within 0\.\.91"),
        ({"taker_half_points": 183}, r"taker points 183/2 are not within 0\.\.91"),
        ({"bouts": 4}, "4 bouts: there are 0 to 3"),
        ({"bouts": -1}, "-1 bouts: there are 0 to 3"),
        ({"taker_alone": True}, "only a 5-player taker can play alone"),
        ({"poignees": (PoigneeLevel.SIMPLE,) * 5}, "5 poignées for 4 players"),
    ],
)
def test_invalid_summaries(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {
        "players": 4,
        "contract": GARDE,
        "taker_half_points": 100,
        "bouts": 1,
    }
    base.update(fields)
    with pytest.raises(ValueError, match=message):
        DealSummary(**base)  # type: ignore[arg-type]


@pytest.mark.parametrize("points", [49.5, "49.5", Fraction(99, 2), " 49.5 "])
def test_with_points(points: float | str | Fraction) -> None:
    s = DealSummary.with_points(points, players=4, contract=GARDE, bouts=2)
    assert s.taker_half_points == 99
    assert s.taker_points == Fraction(99, 2)
    assert score_deal(s).margin == 9  # 8.5 rounded to the winner


@pytest.mark.parametrize("points", [49.25, "49.3", Fraction(1, 3)])
def test_with_points_rejects_quarter_points(points: float | str | Fraction) -> None:
    with pytest.raises(ValueError, match="card points come in halves"):
        DealSummary.with_points(points, players=4, contract=GARDE, bouts=2)


def test_with_points_still_checks_the_range() -> None:
    with pytest.raises(ValueError, match=r"taker points 92 are not within 0\.\.91"):
        DealSummary.with_points(92, players=4, contract=GARDE, bouts=2)


# --- properties -------------------------------------------------------------------------------


@st.composite
def summaries_and_seats(draw: st.DrawFn) -> tuple[DealSummary, int, int | None]:
    players = draw(st.sampled_from([3, 4, 5]))
    alone = players == 5 and draw(st.booleans())
    s = DealSummary(
        players=players,
        contract=draw(st.sampled_from(list(Contract))),
        taker_half_points=draw(st.integers(0, 182)),
        bouts=draw(st.integers(0, 3)),
        petit_au_bout=draw(st.sampled_from([None, Side.TAKER, Side.DEFENCE])),
        poignees=tuple(
            draw(st.lists(st.sampled_from(list(PoigneeLevel)), max_size=players))
        ),
        chelem_announced=draw(st.booleans()),
        chelem=draw(st.sampled_from([None, Side.TAKER, Side.DEFENCE])),
        taker_alone=alone,
    )
    taker = draw(st.integers(0, players - 1))
    partner = None
    if players == 5:
        if alone:
            partner = draw(st.sampled_from([None, taker]))
        else:
            partner = draw(st.integers(0, 4).filter(lambda seat: seat != taker))
    return s, taker, partner


@given(summaries_and_seats())
def test_settlement_is_zero_sum(case: tuple[DealSummary, int, int | None]) -> None:
    s, taker, partner = case
    scores = settle(s, taker, partner)
    assert len(scores) == s.players
    assert sum(scores) == 0
    b = score_deal(s)
    assert scores[taker] == b.taker
    defenders = [seat for seat in range(s.players) if seat not in (taker, partner)]
    assert all(scores[seat] == -b.per_defender for seat in defenders)
    if partner is not None and partner != taker:
        assert scores[partner] == b.per_defender


@given(summaries_and_seats())
def test_score_matches_the_rules_formula(case: tuple[DealSummary, int, int | None]) -> None:
    """X recomputed straight from RULES.md with exact fractions."""
    s, _, _ = case
    target = {0: 56, 1: 51, 2: 41, 3: 36}[s.bouts]
    margin = Fraction(s.taker_half_points, 2) - target
    won = margin >= 0
    sign = 1 if won else -1
    multiplier = {1: 1, 2: 2, 3: 4, 4: 6}[int(s.contract)]
    petit = {None: 0, Side.TAKER: 10, Side.DEFENCE: -10}[s.petit_au_bout]
    x = (sign * (25 + math.ceil(abs(margin))) + petit) * multiplier
    x += sign * sum({"simple": 20, "double": 30, "triple": 40}[p.label] for p in s.poignees)
    if s.chelem is Side.TAKER:
        x += 400 if s.chelem_announced else 200
    elif s.chelem_announced:
        x -= 200
    if s.chelem is Side.DEFENCE:
        x -= 200
    b = score_deal(s)
    assert b.won == won
    assert b.per_defender == x == -b.defender
    assert b.contract_points + b.petit_au_bout + b.poignee + b.chelem == x
