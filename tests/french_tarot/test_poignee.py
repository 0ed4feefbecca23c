"""The poignée (RULES.md 1, "Announcements before play")."""

from __future__ import annotations

import pytest

from arena.games.french_tarot import (
    EXCUSE,
    PETIT,
    POIGNEE_THRESHOLDS,
    Action,
    Card,
    Contract,
    DeclarePoignee,
    GameState,
    HideTrump,
    IllegalActionError,
    Phase,
    Play,
    PoigneeLevel,
    ShownPoignee,
    WrongTurnError,
    apply,
    legal_actions,
    observe,
    parse_card,
    trump,
)
from arena.games.french_tarot.game import poignee_cards

from .builders import (
    cards,
    choose_card,
    legal_plays,
    make_deal,
    mask,
    play,
    play_out,
    show_poignee,
    snapshot,
    start_play,
)

SIMPLE, DOUBLE, TRIPLE = PoigneeLevel.SIMPLE, PoigneeLevel.DOUBLE, PoigneeLevel.TRIPLE


def trumps(low: int, high: int) -> str:
    return " ".join(f"T{n}" for n in range(low, high + 1))


def offers(state: GameState) -> tuple[PoigneeLevel, ...]:
    return tuple(a.level for a in legal_actions(state) if isinstance(a, DeclarePoignee))


def first_to_play(players: int, hand: str, *, beginner: bool = False) -> GameState:
    """Seat 1 (after dealer 0) holds ``hand`` and is about to lead; seat 2 took a Garde Sans
    (a Garde in the beginner variant, discarding the first legal cards)."""
    deal = make_deal(players, 0, {1: hand})
    contract = Contract.GARDE if beginner else Contract.GARDE_SANS
    state = start_play(deal, 2, contract, beginner=beginner)
    assert state.to_act == 1
    return state


def test_thresholds_table() -> None:
    assert POIGNEE_THRESHOLDS == {
        2: {SIMPLE: 13, DOUBLE: 15, TRIPLE: 18},  # with the dummy: 3-player hands
        3: {SIMPLE: 13, DOUBLE: 15, TRIPLE: 18},
        4: {SIMPLE: 10, DOUBLE: 13, TRIPLE: 15},
        5: {SIMPLE: 8, DOUBLE: 10, TRIPLE: 13},
    }
    assert (int(SIMPLE), int(DOUBLE), int(TRIPLE)) == (20, 30, 40)


LEVEL_CASES = [
    # players, trumps held (T1..Tn), with the Excuse, levels offered
    (3, 12, False, ()),
    (3, 13, False, (SIMPLE,)),
    (3, 12, True, (SIMPLE,)),
    (3, 11, True, ()),
    (3, 15, False, (SIMPLE, DOUBLE)),
    (3, 14, True, (SIMPLE, DOUBLE)),
    (3, 17, False, (SIMPLE, DOUBLE)),
    (3, 18, False, (SIMPLE, DOUBLE, TRIPLE)),
    (3, 17, True, (SIMPLE, DOUBLE, TRIPLE)),
    (4, 9, False, ()),
    (4, 10, False, (SIMPLE,)),
    (4, 9, True, (SIMPLE,)),
    (4, 8, True, ()),
    (4, 12, False, (SIMPLE,)),
    (4, 13, False, (SIMPLE, DOUBLE)),
    (4, 12, True, (SIMPLE, DOUBLE)),
    (4, 15, False, (SIMPLE, DOUBLE, TRIPLE)),
    (4, 14, True, (SIMPLE, DOUBLE, TRIPLE)),
    (5, 7, False, ()),
    (5, 8, False, (SIMPLE,)),
    (5, 7, True, (SIMPLE,)),
    (5, 6, True, ()),
    (5, 10, False, (SIMPLE, DOUBLE)),
    (5, 9, True, (SIMPLE, DOUBLE)),
    (5, 13, False, (SIMPLE, DOUBLE, TRIPLE)),
    (5, 12, True, (SIMPLE, DOUBLE, TRIPLE)),
]


@pytest.mark.parametrize(("players", "count", "excuse", "levels"), LEVEL_CASES)
def test_levels_offered_by_player_count(
    players: int, count: int, excuse: bool, levels: tuple[PoigneeLevel, ...]
) -> None:
    hand = trumps(1, count) + (" EX" if excuse else "")
    state = first_to_play(players, hand)
    held = state.hands[1]
    assert (held >> 56 & ((1 << 21) - 1)).bit_count() == count  # no other trump was dealt in
    assert bool(held >> EXCUSE & 1) == excuse
    assert offers(state) == levels
    # Offers come first, then the plays.
    legal = legal_actions(state)
    assert legal == (*(DeclarePoignee(level) for level in levels), *legal_plays(state))


def descending(high: int, low: int) -> tuple[Card, ...]:
    """Trumps ``high`` down to ``low``, as a poignée shows them."""
    return tuple(trump(n) for n in range(high, low - 1, -1))


def hides(state: GameState) -> tuple[Card, ...]:
    return tuple(a.card for a in legal_actions(state) if isinstance(a, HideTrump))


class TestShownCards:
    def shown(self, players: int, hand: str, level: PoigneeLevel, hide: str = "") -> ShownPoignee:
        state = first_to_play(players, hand)
        show_poignee(state, level, hide)
        assert state.phase is Phase.PLAYING and state.to_act == 1
        assert len(state.poignees) == 1
        return state.poignees[0]

    def test_exactly_the_threshold_shows_at_once(self) -> None:
        state = first_to_play(4, trumps(1, 10) + " EX")
        apply(state, DeclarePoignee(SIMPLE), 1)
        assert state.phase is Phase.PLAYING  # no choice, so no decision
        assert state.poignees == [ShownPoignee(1, SIMPLE, descending(10, 1))]
        assert legal_actions(state) == legal_plays(state)

    def test_more_trumps_the_player_chooses_which_to_hide(self) -> None:
        # Thirteen trumps for a simple of ten: three to hide, here the Petit, the 21 and the 12.
        state = first_to_play(4, trumps(1, 12) + " T21 EX")
        apply(state, DeclarePoignee(SIMPLE), 1)
        assert state.phase is Phase.POIGNEE and state.to_act == 1 and state.poignees == []
        # Every trump may be hidden, highest first; nothing else (no Excuse, no card to play).
        assert hides(state) == (trump(21), *(trump(n) for n in range(12, 0, -1)))
        assert all(isinstance(a, HideTrump) for a in legal_actions(state))
        apply(state, HideTrump(trump(1)), 1)
        assert state.phase is Phase.POIGNEE
        assert hides(state) == (trump(21), *(trump(n) for n in range(12, 1, -1)))
        apply(state, HideTrump(trump(21)), 1)
        assert hides(state) == tuple(trump(n) for n in range(12, 1, -1))
        apply(state, HideTrump(trump(12)), 1)
        assert state.phase is Phase.PLAYING and state.to_act == 1
        assert state.poignees == [ShownPoignee(1, SIMPLE, descending(11, 2))]
        assert state.hands[1] >> PETIT & 1  # hidden, not played: still in the hand
        assert legal_actions(state) == legal_plays(state)  # the first card, no 2nd poignée

    def test_the_order_of_the_hidden_trumps_does_not_matter(self) -> None:
        hand = trumps(1, 12) + " T21"
        one = self.shown(4, hand, SIMPLE, "T1 T21 T5")
        other = self.shown(4, hand, SIMPLE, "T5 T1 T21")
        assert one == other
        assert EXCUSE not in one.cards and len(one.cards) == 10

    @pytest.mark.parametrize("players", [3, 4, 5])
    @pytest.mark.parametrize("level", list(PoigneeLevel))
    def test_exactly_the_threshold_in_descending_order(
        self, players: int, level: PoigneeLevel
    ) -> None:
        need = POIGNEE_THRESHOLDS[players][level]
        hand_size = {3: 24, 4: 18, 5: 15}[players]
        top = min(20, hand_size + 1)  # the 21 elsewhere: no seat is petit sec
        extra = top - 1 - need  # trumps 2..top held
        lowest = " ".join(f"T{n}" for n in range(2, 2 + extra))  # hide the lowest: show the top
        shown = self.shown(players, trumps(2, top), level, lowest)
        assert shown.cards == tuple(trump(n) for n in range(top, top - need, -1))

    def test_the_excuse_is_never_shown_beside_enough_trumps(self) -> None:
        # Eleven trumps and the Excuse, a simple of ten: one trump hidden, the Excuse never.
        state = first_to_play(4, trumps(2, 12) + " EX")
        apply(state, DeclarePoignee(SIMPLE), 1)
        assert EXCUSE not in hides(state)
        apply(state, HideTrump(trump(7)), 1)
        assert state.poignees[0].cards == tuple(trump(n) for n in range(12, 1, -1) if n != 7)

    def test_ten_trumps_and_the_excuse_show_the_trumps(self) -> None:
        shown = self.shown(4, trumps(2, 11) + " EX", SIMPLE)
        assert shown.cards == tuple(trump(n) for n in range(11, 1, -1))

    def test_excuse_stands_in_for_one_trump(self) -> None:
        state = first_to_play(4, trumps(5, 13) + " EX")
        apply(state, DeclarePoignee(SIMPLE), 1)
        assert state.phase is Phase.PLAYING  # nothing to choose: every trump and the Excuse
        assert state.poignees[0].cards == (EXCUSE, *(trump(n) for n in range(13, 4, -1)))

    def test_excuse_completing_a_double(self) -> None:
        # Twelve trumps and the Excuse, 4 players: a simple hides two trumps, a double shows
        # all twelve and the Excuse without a choice.
        hand = trumps(3, 14) + " EX"
        simple = self.shown(4, hand, SIMPLE, "T3 T14")
        assert simple.cards == tuple(trump(n) for n in range(13, 3, -1))
        state = first_to_play(4, hand)
        apply(state, DeclarePoignee(DOUBLE), 1)
        assert state.poignees[0].cards == (EXCUSE, *(trump(n) for n in range(14, 2, -1)))

    def test_shown_to_everybody(self) -> None:
        state = first_to_play(4, trumps(1, 10))
        apply(state, DeclarePoignee(SIMPLE), 1)
        for seat in range(4):
            view = observe(state, seat)
            shown = ShownPoignee(1, SIMPLE, tuple(trump(n) for n in range(10, 0, -1)))
            assert view.poignees == (shown,)

    def test_nobody_else_sees_the_choice_being_made(self) -> None:
        state = first_to_play(4, trumps(1, 12))
        before = {seat: observe(state, seat) for seat in (0, 2, 3)}
        apply(state, DeclarePoignee(SIMPLE), 1)
        apply(state, HideTrump(trump(1)), 1)
        mine = observe(state, 1)
        assert mine.phase is Phase.POIGNEE and mine.legal_actions == legal_actions(state)
        for seat, seen in before.items():
            assert observe(state, seat) == seen  # the play phase, no poignée, nothing new
        apply(state, HideTrump(trump(12)), 1)
        for seat in range(4):
            view = observe(state, seat)
            assert view.phase is Phase.PLAYING
            assert view.poignees == (ShownPoignee(1, SIMPLE, descending(11, 2)),)

    def test_poignee_cards(self) -> None:
        hand = mask(trumps(1, 12) + " EX")
        lowest = tuple(trump(n) for n in range(10, 0, -1))
        assert poignee_cards(hand, 4, SIMPLE) == lowest  # records written before the choice
        assert poignee_cards(hand, 4, SIMPLE, mask("T1 T2")) == tuple(
            trump(n) for n in range(12, 2, -1)
        )
        assert poignee_cards(hand, 4, SIMPLE, mask("T1")) is None  # one extra trump still shown
        assert poignee_cards(hand, 4, SIMPLE, mask("T1 T2 T3")) is None  # too few shown
        assert poignee_cards(hand, 4, SIMPLE, mask("T1 EX")) is None  # only trumps are hidden
        assert poignee_cards(hand, 4, SIMPLE, mask("T1 T13")) is None  # T13 not held
        assert poignee_cards(hand, 4, TRIPLE) is None
        assert poignee_cards(hand, 4, DOUBLE) == (EXCUSE, *(trump(n) for n in range(12, 0, -1)))


class TestHidingRefused:
    def declared(self) -> GameState:
        state = first_to_play(4, trumps(1, 12) + " EX KS")
        apply(state, DeclarePoignee(SIMPLE), 1)
        return state

    @pytest.mark.parametrize(
        ("action", "reason"),
        [
            (Play(trump(1)), "play T1 must wait: first choose the trumps to keep hidden from "
             "the simple poignée"),
            (DeclarePoignee(DOUBLE), "poignee double must wait: first choose the trumps to keep "
             "hidden from the simple poignée"),
            (HideTrump(EXCUSE), "only trumps can be hidden, not EX: the Excuse is shown only "
             "for a missing trump"),
            (HideTrump(parse_card("KS")), "only trumps can be hidden, not KS"),
            (HideTrump(trump(21)), "T21 is not in this hand"),
        ],
    )
    def test_refused_with_a_reason(self, action: Action, reason: str) -> None:
        state = self.declared()
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, action, 1)
        assert info.value.reason == reason
        assert snapshot(state) == before

    def test_a_trump_hidden_twice(self) -> None:
        state = first_to_play(4, trumps(1, 13))
        apply(state, DeclarePoignee(SIMPLE), 1)
        apply(state, HideTrump(trump(13)), 1)
        with pytest.raises(IllegalActionError) as info:
            apply(state, HideTrump(trump(13)), 1)
        assert info.value.reason == "T13 is already hidden"

    def test_by_another_seat(self) -> None:
        state = self.declared()
        with pytest.raises(WrongTurnError):
            apply(state, HideTrump(trump(1)), 2)

    def test_not_outside_a_poignee(self) -> None:
        state = first_to_play(4, trumps(1, 12))
        with pytest.raises(IllegalActionError) as info:
            apply(state, HideTrump(trump(1)), 1)
        assert info.value.reason == (
            "hide T1: trumps are hidden only while showing a poignée with extra trumps"
        )


class TestWhen:
    def test_declaring_keeps_the_turn_then_the_seat_plays(self) -> None:
        state = first_to_play(4, trumps(1, 10))
        plays_before = legal_plays(state)
        apply(state, DeclarePoignee(SIMPLE), 1)
        assert state.to_act == 1
        assert state.phase is Phase.PLAYING
        assert legal_actions(state) == plays_before  # no second poignée
        assert state.trick == []

    def test_only_once(self) -> None:
        state = first_to_play(4, trumps(1, 15))
        show_poignee(state, SIMPLE)
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, DeclarePoignee(DOUBLE), 1)
        assert info.value.reason == "a poignée is shown just before one's first card, and only once"
        assert snapshot(state) == before

    def test_not_after_the_first_card(self) -> None:
        state = first_to_play(4, trumps(1, 10))
        while len(state.tricks) < 1 or state.to_act != 1:
            apply(state, Play(choose_card(state)), state.to_act)
            if state.phase is not Phase.PLAYING:
                pytest.fail("the deal ended")
        assert offers(state) == ()
        with pytest.raises(IllegalActionError, match="only once"):
            apply(state, DeclarePoignee(SIMPLE), 1)

    def test_offered_to_each_seat_before_its_first_card(self) -> None:
        """Each seat that qualifies is offered the poignée at its first turn, even when it does
        not lead, and only then."""
        deal = make_deal(4, 0, {1: trumps(1, 10), 2: trumps(11, 20), 3: "T21 EX"})
        state = start_play(deal, 0, Contract.GARDE_SANS)
        seen: dict[int, list[tuple[PoigneeLevel, ...]]] = {seat: [] for seat in range(4)}
        while state.phase is Phase.PLAYING:
            seat = state.to_act
            assert seat is not None
            seen[seat].append(offers(state))
            apply(state, Play(choose_card(state)), seat)
        assert seen[1][0] == (SIMPLE,) and seen[2][0] == (SIMPLE,)
        assert seen[3][0] == () and seen[0][0] == ()
        for seat in range(4):
            assert all(o == () for o in seen[seat][1:])
        assert state.poignees == []

    def test_not_in_the_bidding(self) -> None:
        deal = make_deal(4, 0, {1: trumps(1, 15)})
        state = GameState(deal)
        with pytest.raises(IllegalActionError, match="not an action of the bidding phase"):
            apply(state, DeclarePoignee(SIMPLE), 1)

    @pytest.mark.parametrize(
        ("hand", "level", "reason"),
        [
            (trumps(1, 9), SIMPLE,
             "a simple poignée needs 10 trumps (the Excuse may replace one), this hand has 9"),
            (trumps(1, 12), DOUBLE,
             "a double poignée needs 13 trumps (the Excuse may replace one), this hand has 12"),
            (trumps(1, 8) + " EX", SIMPLE,
             "a simple poignée needs 10 trumps (the Excuse may replace one), this hand has 8"),
        ],
    )
    def test_not_enough_trumps(self, hand: str, level: PoigneeLevel, reason: str) -> None:
        state = first_to_play(4, hand)
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, DeclarePoignee(level), 1)
        assert info.value.reason == reason
        assert snapshot(state) == before


class TestBeginner:
    def test_never_offered(self) -> None:
        state = first_to_play(4, trumps(1, 15), beginner=True)
        assert offers(state) == ()
        assert legal_actions(state) == legal_plays(state)

    def test_refused(self) -> None:
        state = first_to_play(4, trumps(1, 15), beginner=True)
        before = snapshot(state)
        with pytest.raises(IllegalActionError) as info:
            apply(state, DeclarePoignee(SIMPLE), 1)
        assert info.value.reason == "the beginner variant has no poignée"
        assert snapshot(state) == before


class TestBonus:
    """The bonus is not multiplied and goes to the side that wins, whoever showed it."""

    def test_defender_shows_taker_wins(self) -> None:
        deal = make_deal(4, 0, {1: trumps(11, 21) + " EX KS KH KD KC QS QH", 2: trumps(1, 10)})
        state = start_play(deal, 1, Contract.GARDE_SANS)
        result = play_out(state, poignees={2: SIMPLE})
        shown = ShownPoignee(2, SIMPLE, tuple(trump(n) for n in range(10, 0, -1)))
        assert state.poignees == [shown]
        assert result.summary is not None and result.breakdown is not None
        assert result.summary.poignees == (SIMPLE,)
        assert result.breakdown.won
        assert result.breakdown.poignee == 20
        without = result.breakdown.per_defender - 20
        assert result.breakdown.contract_points + result.breakdown.petit_au_bout == without
        assert result.scores[1] == 3 * result.breakdown.per_defender

    def test_taker_shows_taker_loses(self) -> None:
        deal = make_deal(
            3, 0, {1: trumps(2, 14) + " AS 2S 3S 4S 5S AH 2H 3H 4H 5H AD"},
            chien="KS KH KD KC QS QH",
        )
        state = start_play(deal, 1, Contract.GARDE_CONTRE)
        result = play_out(state, poignees={1: SIMPLE})
        assert result.summary is not None and result.breakdown is not None
        assert state.poignees[0].seat == 1
        assert not result.breakdown.won
        assert result.breakdown.poignee == -20
        assert result.breakdown.per_defender == (
            result.breakdown.contract_points + result.breakdown.petit_au_bout - 20
        )
        assert result.scores == (272, -544, 272)

    def test_both_sides_show_and_the_winner_takes_both(self) -> None:
        taker = trumps(11, 21) + " EX KS KH KD KC QS QH"
        deal = make_deal(4, 0, {1: taker, 2: trumps(1, 10)})
        state = start_play(deal, 1, Contract.GARDE_SANS)
        result = play_out(state, poignees={1: SIMPLE, 2: SIMPLE})
        assert [p.seat for p in state.poignees] == [1, 2]
        # Eleven trumps and the Excuse: the simple shows ten trumps, never the Excuse.
        assert state.poignees[0].cards == tuple(trump(n) for n in range(20, 10, -1))
        assert result.summary is not None and result.breakdown is not None
        assert result.summary.poignees == (SIMPLE, SIMPLE)
        assert result.breakdown.won and result.breakdown.poignee == 40

    def test_triple_in_a_chelem(self) -> None:
        taker = trumps(1, 21) + " EX KS KH"
        state = start_play(make_deal(3, 0, {1: taker}), 1, Contract.GARDE_SANS)
        result = play_out(state, late={1: "T1 EX"}, poignees={1: TRIPLE})
        shown = state.poignees[0]
        assert shown.cards == tuple(trump(n) for n in range(18, 0, -1))
        assert result.breakdown is not None
        assert result.breakdown.poignee == 40
        # (25 + 55 + 10) x 4 + 200 for the unannounced chelem, + 40 not multiplied.
        assert result.scores == (-600, 1200, -600)


def test_cards_helper_sanity() -> None:
    assert cards("T1 EX") == [trump(1), EXCUSE]
    state = first_to_play(4, trumps(1, 10))
    play(state, "T1")
    assert state.poignee_done >> 1 & 1
