"""The Excuse, the last trick, the Petit au bout and the chelem (RULES.md 1, "Play",
"Scoring one deal").

Every test plays a whole three-player deal (dealer 0, so seat 1 speaks and leads first) built
so that the outcome is forced: typically one hand holds every trump, so it wins every trick it
wants. :func:`play_out` plays each seat's lowest legal card, except the cards a test plays
``early`` (as soon as legal) or keeps ``late`` (until nothing else is legal).
"""

from __future__ import annotations

from typing import ClassVar

from arena.games.french_tarot import (
    EXCUSE,
    PETIT,
    Contract,
    DealResult,
    DealSummary,
    GameState,
    Play,
    Side,
    apply,
    parse_card,
)
from arena.games.french_tarot.cards import TOTAL_HALF_POINTS

from .builders import cards, choose_card, half_points, make_deal, play_out, start_play

ALL_TRUMPS = " ".join(f"T{n}" for n in range(1, 22))
# Every card from the Ace to the 6 of each suit: lower than anything the defence holds.
LOW_CARDS = " ".join(f"{rank}{suit}" for suit in "SHDC" for rank in ("A", "2", "3", "4", "5", "6"))


def game(
    hands: dict[int, str],
    chien: str = "",
    *,
    taker: int = 1,
    contract: Contract = Contract.GARDE_SANS,
    chelem: bool = False,
) -> GameState:
    return start_play(make_deal(3, 0, hands, chien), taker, contract, chelem=chelem)


def summary_of(result: DealResult) -> DealSummary:
    assert result.summary is not None
    return result.summary


def winners(state: GameState) -> list[int]:
    return [trick.winner for trick in state.tricks]


def points_won_by(state: GameState, seats: set[int]) -> int:
    """Half-points of the cards other than the Excuse in the tricks ``seats`` won."""
    return sum(
        half_points(c for c in trick.cards if c != EXCUSE)
        for trick in state.tricks
        if trick.winner in seats
    )


class TestChelemWithTheExcuse:
    TAKER = f"{ALL_TRUMPS} EX KS KH"

    def test_announced_chelem_excuse_led_last_wins(self) -> None:
        state = game({2: self.TAKER}, taker=2, chelem=True)
        assert state.to_act == 2  # the taker leads after announcing, not seat 1
        result = play_out(state, late={2: "T1 EX"})
        assert winners(state) == [2] * 24
        last, before_last = state.tricks[-1], state.tricks[-2]
        assert last.cards[0] == EXCUSE and last.leader == 2 and last.winner == 2
        assert before_last.cards[0] == PETIT
        summary = summary_of(result)
        assert summary.taker_half_points == TOTAL_HALF_POINTS
        assert summary.bouts == 3
        assert summary.petit_au_bout is Side.TAKER  # the second-to-last trick counts as last
        assert summary.chelem is Side.TAKER
        assert summary.chelem_announced
        assert not result.excuse_debt_unpaid
        assert result.breakdown is not None
        assert result.breakdown.contract_points == (25 + 55) * 4
        assert result.breakdown.petit_au_bout == 40
        assert result.breakdown.chelem == 400
        assert result.scores == (-760, -760, 1520)

    def test_unannounced_chelem(self) -> None:
        state = game({1: self.TAKER})
        result = play_out(state, late={1: "T1 EX"})
        assert winners(state) == [1] * 24
        summary = summary_of(result)
        assert summary.chelem is Side.TAKER and not summary.chelem_announced
        assert summary.petit_au_bout is Side.TAKER
        assert summary.taker_half_points == TOTAL_HALF_POINTS
        assert result.breakdown is not None and result.breakdown.chelem == 200
        assert result.scores == (-560, 1120, -560)

    def test_announced_chelem_failed_excuse_paid_later(self) -> None:
        """The taker leads the Excuse first and loses that trick: no chelem, and the Excuse,
        played before the taker won anything, is paid for with a half-point card later."""
        state = game({1: self.TAKER, 2: "AS", 0: "2S"}, chelem=True)
        result = play_out(state, early={1: "EX"}, late={1: "T1"})
        first = state.tricks[0]
        assert first.cards == tuple(cards("EX AS 2S"))
        assert first.winner == 0  # the 2 of spades: the Excuse set no suit, the Ace did
        assert winners(state)[1:] == [1] * 23
        summary = summary_of(result)
        # All the cards but the Ace and 2 of spades, and a half-point given for the Excuse.
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 2 - 1
        assert summary.bouts == 3
        assert summary.chelem is None and summary.chelem_announced
        assert summary.petit_au_bout is Side.TAKER
        assert not result.excuse_debt_unpaid
        assert result.breakdown is not None
        assert result.breakdown.margin == 54  # 89.5 - 36, rounded to the winner
        assert result.breakdown.chelem == -200
        assert result.scores == (-156, 312, -156)


class TestPetitInTheLastTrickOfAChelemWithTheExcuse:
    """RULES.md: in a chelem where the Excuse is played to the last trick, the Petit in the
    second-to-last trick counts as au bout; that is an addition, so a Petit in the last trick
    itself still counts for the side that wins that trick."""

    def test_three_players_a_defender_drops_the_petit_under_the_excuse(self) -> None:
        # The taker holds every King, Queen, Cavalier and Jack and the seven highest trumps;
        # seat 2 follows every suit and keeps its Petit under seven lower trumps; seat 0 has
        # no trump; the chien holds the other trumps.
        taker = "T15 T16 T17 T18 T19 T20 T21 EX " + " ".join(
            f"{rank}{suit}" for suit in "SHDC" for rank in "JCQK"
        )
        petit = "T1 T2 T3 T4 T5 T6 T7 T8 " + " ".join(
            f"{rank}{suit}" for suit in "SHDC" for rank in ("7", "8", "9", "10")
        )
        state = game({1: taker, 2: petit}, chien="T9 T10 T11 T12 T13 T14", chelem=True)
        result = play_out(state, late={1: "EX", 2: "T1"})
        assert winners(state) == [1] * 24
        last = state.tricks[-1]
        assert last.cards[:2] == (EXCUSE, PETIT) and last.leader == 1 and last.winner == 1
        assert PETIT not in state.tricks[-2].cards
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.TAKER
        assert summary.chelem is Side.TAKER and summary.bouts == 3
        assert result.breakdown is not None
        assert result.breakdown.petit_au_bout == 40
        # (25 + 55 + 10) x 4 + 400 for the announced chelem.
        assert result.scores == (-760, 1520, -760)

    def test_four_players_a_defender_drops_the_petit_under_the_excuse(self) -> None:
        taker = "T15 T16 T17 T18 T19 T20 T21 EX KS QS CS KH QH CH KD QD CD KC"
        petit = "T1 T2 T3 T4 T5 T6 T7 T8 JS 10S 9S JH 10H 9H JD 10D 9D QC"
        deal = make_deal(4, 0, {1: taker, 2: petit}, chien="T9 T10 T11 T12 T13 T14")
        state = start_play(deal, 1, Contract.GARDE_SANS, chelem=False)
        result = play_out(state, late={1: "EX", 2: "T1"})
        assert winners(state) == [1] * 18
        last = state.tricks[-1]
        assert last.cards[:2] == (EXCUSE, PETIT) and last.winner == 1
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.TAKER
        assert summary.chelem is Side.TAKER and not summary.chelem_announced
        assert result.breakdown is not None and result.breakdown.petit_au_bout == 40
        # (25 + 55 + 10) x 4 + 200 for the chelem made unannounced, paid by three defenders.
        assert result.scores == (-560, 1680, -560, -560)

    def test_five_players_the_taker_leads_the_petit_and_the_partner_plays_the_excuse(
        self,
    ) -> None:
        # Seat 1 takes and calls the King of hearts, held by seat 3 with the seven lowest
        # trumps but the Petit and the Excuse; no defender holds a trump. The taker draws
        # trumps from the top, cashes its King and leads the Petit last; the partner keeps the
        # Excuse for that trick.
        taker = "T1 T9 T10 T11 T12 T13 T14 T15 T16 T17 T18 T19 T20 T21 KS"
        partner = "T2 T3 T4 T5 T6 T7 T8 EX KH QH CH JH 10H 9H 8H"
        deal = make_deal(5, 0, {1: taker, 3: partner})
        state = start_play(deal, 1, Contract.GARDE_SANS, call="KH")
        assert state.partner == 3
        early = {1: " ".join(f"T{n}" for n in range(21, 8, -1)) + " KS T1"}
        result = play_out(state, early=early, late={3: "EX"})
        assert all(trick.winner in (1, 3) for trick in state.tricks)
        last = state.tricks[-1]
        assert last.leader == 1 and last.cards[0] == PETIT and last.winner == 1
        assert EXCUSE in last.cards and last.seat_of(last.cards.index(EXCUSE)) == 3
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.TAKER
        assert summary.chelem is Side.TAKER and summary.bouts == 3
        assert result.breakdown is not None and result.breakdown.petit_au_bout == 40
        assert result.scores == (-560, 1120, -560, 560, -560)

    def test_the_petit_in_the_second_to_last_trick_still_counts(self) -> None:
        state = game({1: f"{ALL_TRUMPS} EX KS KH"})
        result = play_out(state, late={1: "T1 EX"})
        assert PETIT in state.tricks[-2].cards and state.tricks[-1].cards[0] == EXCUSE
        assert summary_of(result).petit_au_bout is Side.TAKER


class TestExcuseExchange:
    def test_defence_excuse_unpaid_in_a_taker_chelem(self) -> None:
        state = game({1: f"{ALL_TRUMPS} KS KH KD", 2: "EX"})
        result = play_out(state, early={2: "EX"}, late={1: "T1"})
        assert EXCUSE in state.tricks[0].cards
        assert winners(state) == [1] * 24
        summary = summary_of(result)
        # The Excuse stays with the defence, which never wins a trick to pay for it.
        assert result.excuse_debt_unpaid
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 9
        assert summary.bouts == 2
        assert summary.chelem is Side.TAKER  # the trick with the Excuse counts for the taker
        assert summary.petit_au_bout is Side.TAKER
        assert result.scores == (-524, 1048, -524)

    def test_taker_excuse_unpaid_in_a_defence_chelem(self) -> None:
        taker = LOW_CARDS.replace("6C", "EX")
        state = game({1: taker}, chien="T1 6C 7C 8C 9C 10C", contract=Contract.GARDE_CONTRE)
        result = play_out(state, early={1: "EX"})
        assert state.tricks[0].cards[0] == EXCUSE
        assert 1 not in winners(state)
        summary = summary_of(result)
        assert result.excuse_debt_unpaid
        assert summary.taker_half_points == 9  # the Excuse, kept, and nothing else
        assert summary.bouts == 1
        assert summary.chelem is Side.DEFENCE
        assert summary.petit_au_bout is None
        assert result.breakdown is not None
        assert result.breakdown.chelem == -200  # each defender gains 200 more
        assert result.breakdown.contract_points == -(25 + 47) * 6
        assert result.scores == (632, -1264, 632)

    def _defence_excuse(self, early_trick: int) -> tuple[GameState, DealResult]:
        state = game({1: f"{ALL_TRUMPS} KS AH KD", 2: "EX"})
        if early_trick == 1:
            result = play_out(state, early={2: "EX"})
        else:
            while len(state.tricks) < early_trick - 1:
                play_out_one(state)
            result = play_out(state, early={2: "EX"})
        excuse_trick = next(i for i, t in enumerate(state.tricks) if EXCUSE in t.cards)
        assert excuse_trick == early_trick - 1
        assert state.tricks[excuse_trick].winner == 1
        assert state.tricks[1].cards[0] == parse_card("AH")
        assert winners(state) == [1, state.tricks[1].winner] + [1] * 22
        assert state.tricks[1].winner != 1
        return state, result

    def test_defence_excuse_paid_at_once(self) -> None:
        """Played to the third trick, after the defence won the second: paid at once."""
        state, result = self._defence_excuse(3)
        summary = summary_of(result)
        defence_points = points_won_by(state, {0, 2})
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 9 - defence_points + 1
        assert not result.excuse_debt_unpaid
        assert summary.bouts == 2

    def test_defence_excuse_paid_later(self) -> None:
        """Played to the first trick, before the defence has a trick: paid once it wins one."""
        state, result = self._defence_excuse(1)
        summary = summary_of(result)
        defence_points = points_won_by(state, {0, 2})
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 9 - defence_points + 1
        assert not result.excuse_debt_unpaid

    def test_excuse_with_its_own_side_changes_nothing(self) -> None:
        """Seat 2 plays the Excuse into a trick seat 0, its partner in defence, wins."""
        state = game({1: f"{ALL_TRUMPS} 2S AH KD", 2: "EX 3S", 0: "KS"})
        result = play_out(state, early={2: "EX", 0: "KS"})
        first = state.tricks[0]
        assert first.cards[1] == EXCUSE and first.winner == 0
        summary = summary_of(result)
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 9 - points_won_by(state, {0, 2})
        assert not result.excuse_debt_unpaid


def play_out_one(state: GameState) -> None:
    """One more trick with the plain lowest-card policy."""
    tricks = len(state.tricks)
    while len(state.tricks) == tricks:
        apply(state, Play(choose_card(state)), state.to_act)


class TestExcuseInTheLastTrick:
    def test_defence_excuse_in_the_last_trick_goes_to_the_taker(self) -> None:
        state = game({1: f"{ALL_TRUMPS} KS KH KD", 2: "EX"})
        result = play_out(state, late={2: "EX"})
        assert winners(state) == [1] * 24
        last = state.tricks[-1]
        assert EXCUSE in last.cards and last.cards[0] != EXCUSE
        assert all(PETIT not in t.cards for t in state.tricks[-2:])
        summary = summary_of(result)
        assert summary.taker_half_points == TOTAL_HALF_POINTS
        assert summary.bouts == 3
        assert summary.chelem is Side.TAKER
        assert summary.petit_au_bout is None
        assert not result.excuse_debt_unpaid
        assert result.scores == (-520, 1040, -520)

    def test_taker_excuse_led_last_without_a_chelem_is_lost(self) -> None:
        """The taker lost a trick: the Excuse led to the last trick loses it and changes sides,
        and the Petit in the second-to-last trick is not au bout."""
        state = game({1: f"{ALL_TRUMPS} EX KS AH"})
        result = play_out(state, late={1: "T1 EX"})
        won = winners(state)
        assert won[1] != 1 and won[-1] != 1
        assert won[:1] + won[2:-1] == [1] * 22
        last = state.tricks[-1]
        assert last.cards[0] == EXCUSE and last.leader == 1
        assert state.tricks[-2].cards[0] == PETIT
        summary = summary_of(result)
        assert summary.taker_half_points == TOTAL_HALF_POINTS - 9 - points_won_by(state, {0, 2})
        assert summary.bouts == 2
        assert summary.petit_au_bout is None
        assert summary.chelem is None
        assert not result.excuse_debt_unpaid


class TestDefenceChelem:
    TAKER = LOW_CARDS  # the taker never wins a trick

    def test_excuse_led_last_by_the_defence_wins_it(self) -> None:
        state = game(
            {1: self.TAKER, 2: f"{ALL_TRUMPS} EX 7S 8S"}, contract=Contract.GARDE_CONTRE
        )
        result = play_out(state, late={2: "T1 EX"})
        assert 1 not in winners(state)
        last = state.tricks[-1]
        assert last.cards[0] == EXCUSE and last.winner == 2
        assert PETIT in state.tricks[-2].cards and state.tricks[-2].winner == 2
        summary = summary_of(result)
        assert summary.taker_half_points == 0
        assert summary.bouts == 0
        assert summary.petit_au_bout is Side.DEFENCE
        assert summary.chelem is Side.DEFENCE
        assert result.breakdown is not None
        assert result.breakdown.petit_au_bout == -60
        assert result.breakdown.chelem == -200
        assert result.scores == (746, -1492, 746)

    def test_petit_in_the_last_trick_for_the_defence(self) -> None:
        state = game(
            {1: self.TAKER, 2: f"{ALL_TRUMPS} 7S 8S 9S"},
            chien="EX",
            contract=Contract.GARDE_CONTRE,
        )
        result = play_out(state, late={2: "T1"})
        assert 1 not in winners(state)
        assert PETIT in state.tricks[-1].cards
        summary = summary_of(result)
        assert summary.taker_half_points == 0 and summary.bouts == 0
        assert summary.petit_au_bout is Side.DEFENCE
        assert summary.chelem is Side.DEFENCE
        assert result.scores == (746, -1492, 746)


class TestPetitAuBout:
    def test_taker_petit_in_the_last_trick(self) -> None:
        state = game({1: f"{ALL_TRUMPS} KS AH KD"})
        result = play_out(state, late={1: "T1"})
        assert state.tricks[1].winner != 1
        last = state.tricks[-1]
        assert last.cards[0] == PETIT and last.winner == 1
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.TAKER
        assert summary.chelem is None
        assert result.breakdown is not None and result.breakdown.petit_au_bout == 40

    # A deal where the Petit is captured in the last trick: seat 1 leads it, seat 0 plays the 21.
    CAPTURE: ClassVar[dict[int, str]] = {
        0: "4S 6S 8S 9S JS KS 3H 9H QH AD 5D QD KD 8C KC T2 T4 T7 T10 T13 T16 T18 T21 EX",
        1: "AS 2S 3S CS AH 5H 6H 8H 10H 2D 4D 6D 7D 8D AC 2C 10C T1 T5 T8 T9 T14 T15 T20",
        2: "5S 7S 10S 2H 4H 7H JH CH 3D 9D 10D JD CD 3C 4C 5C 6C 7C T3 T6 T11 T12 T17 T19",
    }
    CAPTURE_CHIEN = "QS KH 9C JC CC QC"
    CAPTURE_LATE: ClassVar[dict[int, str]] = {0: "T21", 1: "T1", 2: "T19"}

    def capture(self, taker: int) -> tuple[GameState, DealResult]:
        state = game(self.CAPTURE, self.CAPTURE_CHIEN, taker=taker)
        result = play_out(state, late=self.CAPTURE_LATE)
        last = state.tricks[-1]
        assert last.cards == tuple(cards("T1 7C T21"))
        assert last.leader == 1 and last.winner == 0
        return state, result

    def test_petit_captured_by_the_defence(self) -> None:
        state, result = self.capture(taker=1)
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.DEFENCE
        # Seat 0 played the Excuse into trick 23, which the taker won: the defence keeps it and
        # gives the taker a half-point card.
        assert cards("EX") == [c for c in state.tricks[-2].cards if c == EXCUSE]
        assert state.tricks[-2].winner == 1
        expected = points_won_by(state, {1}) + half_points(cards(self.CAPTURE_CHIEN)) + 1
        assert summary.taker_half_points == expected == 38
        assert summary.bouts == 0
        assert result.breakdown is not None
        assert result.breakdown.petit_au_bout == -40
        assert result.scores == (288, -576, 288)

    def test_petit_captured_by_the_taker(self) -> None:
        """Same cards, seat 0 takes: the defender's Petit in the last trick scores for it."""
        state, result = self.capture(taker=0)
        summary = summary_of(result)
        assert summary.petit_au_bout is Side.TAKER
        assert summary.bouts == 3  # the Excuse kept (paid for), the 21 and the captured Petit
        expected = points_won_by(state, {0}) + half_points(cards(self.CAPTURE_CHIEN)) + 9 - 1
        assert summary.taker_half_points == expected
        assert result.breakdown is not None and result.breakdown.petit_au_bout == 40
        assert result.scores == (520, -260, -260)
