"""No hidden card reaches a seat before the end of the deal.

Every message each seat's channel receives over hundreds of random deals (2 players with the
dummy, 3, 4 and 5 players, every contract) is checked at the moment it arrives, both as the
runner sends it and as it travels on the wire (encoded to protobuf and decoded back), against
what that seat may know then:

- its own cards (as dealt, and the chien once the taker takes it up);
- cards played, poignées shown, trumps shown from the discard, the called card's name;
- the chien once it is shown to all (Petite, Garde; never for a Garde Sans or Garde Contre);
- the taker alone sees its whole discard;
- with five players, the partner's identity only once the called card is played;
- with two players, the dummy's hand once it is shown (after the discard, or after bidding for a
  Garde Sans or Contre), and the defender alone is asked for the dummy's seat, with its hand.

Views are also taken at random moments through the :class:`~arena.table.messages.ViewFn` the
runner hands out, which is what a reconnecting bot is sent.

A table that does not reveal its deal (a competition: the board is still being played at other
tables) keeps it secret after the end too: its TableEnd, raw and on the wire, and a view taken
after the end show the outcome and the scores, and nothing a seat did not see during the play.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    CallCard,
    Contract,
    Deal,
    DealOutcome,
    DealResult,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Observation,
    Phase,
    Play,
    PoigneeLevel,
    ShownPoignee,
    observe,
    trump,
)
from arena.games.french_tarot.cards import cards_of, is_trump
from arena.games.french_tarot.deal import (
    CHIEN_SIZES,
    DUMMY,
    HAND_SIZES,
    dealer_seats,
    first_seat,
)
from arena.games.french_tarot.events import (
    BidMade,
    CardCalled,
    CardDiscarded,
    CardPlayed,
    ChienShown,
    DummyShown,
    PartnerRevealed,
    PoigneeShown,
    TrumpDiscarded,
)
from arena.proto_gen.tarot_arena.v1 import arena_pb2 as pb
from arena.table import (
    DecisionRequest,
    Notice,
    TableEnd,
    TableEvent,
    TableOutcome,
    TableRunner,
    TableStart,
)
from arena.transport import convert, wire
from tests.french_tarot.builders import make_deal

from .fakes import FakeSeat, make_runner, player, random_player

DEALS_PER_TABLE_SIZE = 100


class Leak(AssertionError):
    pass


def allowed_cards(state: GameState, seat: int, start: int = 0) -> set[int]:
    """The cards ``seat`` may know the place of now, from the actions from ``start`` on, the
    poignées and the chien (its own hand is the caller's business when ``start`` > 0)."""
    deal = state.deal
    allowed = set(deal.hands[seat]) if start == 0 else set()
    for actor, action in state.history[start:]:
        shown = isinstance(action, Play) or (
            isinstance(action, Discard) and (actor == seat or is_trump(action.card))
        )
        if shown:
            allowed.add(action.card)
    for poignee in state.poignees:
        allowed.update(poignee.cards)
    if chien_shown(state):
        allowed.update(deal.chien)  # shown to all, and taken up by the taker
    if dummy_shown(state):
        allowed.update(deal.hands[DUMMY])
    return allowed


def dummy_shown(state: GameState) -> bool:
    """Two players: the dummy is shown once the discard is laid (Petite, Garde), or once the
    bidding ends (Garde Sans, Garde Contre); never in a deal both players passed."""
    if state.dummy_seat is None or state.contract is None or state.phase is Phase.BIDDING:
        return False
    return not state.contract.chien_shown or len(cards_of(state.discard)) == CHIEN_SIZES[2]


def chien_shown(state: GameState) -> bool:
    """Petite or Garde, once the bidding (and the call) is over."""
    return (
        state.contract is not None and state.contract.chien_shown
        and state.phase not in (Phase.BIDDING, Phase.CALLING)
    )


def partner_known(state: GameState) -> bool:
    return state.called_card is not None and any(
        isinstance(a, Play) and a.card == state.called_card for _, a in state.history
    )


def action_cards(actions: Iterable[Action]) -> Iterator[int]:
    for action in actions:
        if isinstance(action, CallCard):
            continue  # every card of the right rank is callable, wherever it lies
        card = getattr(action, "card", None)
        if card is not None:
            yield card


def view_cards(view: Observation) -> Iterator[int]:
    yield from view.hand
    yield from view.chien or ()
    yield from view.discard or ()
    yield from view.discarded_trumps
    yield from view.dummy or ()
    for poignee in view.poignees:
        yield from poignee.cards
    for trick in view.tricks:
        yield from trick.cards
    for _, card in view.current_trick:
        yield card
    yield from action_cards(view.legal_actions)


class Spy:
    """Checks everything one seat receives, at the moment it arrives."""

    def __init__(self, runner: TableRunner, seat: int, rng: random.Random) -> None:
        self.runner = runner
        self.seat = seat
        self.rng = rng
        self.ended = False
        self.checked = 0
        self._allowed: tuple[int, set[int]] = (0, set(runner.state.deal.hands[seat]))

    @property
    def state(self) -> GameState:
        return self.runner.state

    def fail(self, what: str, message: Any) -> None:
        raise Leak(f"seat {self.seat} {what}: {message!r}\nstate: {self.state!r}")

    def allowed(self) -> set[int]:
        """:func:`allowed_cards`, computed once per action (every change of the state is one)."""
        actions = len(self.state.history)
        done, allowed = self._allowed
        if done != actions:  # what is known stays known: add what the new actions showed
            allowed |= allowed_cards(self.state, self.seat, done)
            self._allowed = (actions, allowed)
        return allowed

    def check_cards(self, cards: Iterable[int], message: Any) -> None:
        hidden = set(cards) - self.allowed()
        if hidden:
            self.fail(f"was sent hidden cards {sorted(hidden)}", message)

    def check_view(self, view: Observation, message: Any) -> None:
        state = self.state
        if view.seat != self.seat:
            self.fail("was sent another seat's view", message)
        if view.result is not None or view.deal is not None:
            self.fail("saw the deal's result before its end", message)
        if view.hand != tuple(sorted(view.hand)) or set(view.hand) != set(
            self.current_hand()
        ):
            self.fail("was sent a hand that is not its own", message)
        if view.discard and self.seat != state.taker:
            self.fail("saw the taker's discard", message)
        if view.chien and not chien_shown(state):
            self.fail("saw an unshown chien", message)
        if view.dummy is not None and not dummy_shown(state):
            self.fail("saw the dummy before it was shown", message)
        if view.partner is not None and not partner_known(state):
            self.fail("learnt the partner before the called card was played", message)
        self.check_cards(view_cards(view), message)
        self.checked += 1

    def current_hand(self) -> list[int]:
        return cards_of(self.state.hands[self.seat])

    def check_sealed_end(self, end: TableEnd) -> None:
        """A TableEnd of a deal not revealed: the outcome and the scores, nothing else."""
        result = self.state.result
        assert result is not None
        if end.cards is not None or end.record is not None:
            self.fail("was shown the deal at the end of a sealed table", end)
        if end.result != DealResult(result.outcome, result.scores):
            self.fail("was told more than the outcome and the scores", end)

    def check_sealed_view(self, view: Observation, message: Any) -> None:
        """A view taken after the end of a sealed table (a bot reconnecting then)."""
        state = self.state
        result = state.result
        assert result is not None
        if view.deal is not None or view.result != DealResult(result.outcome, result.scores):
            self.fail("saw the deal or the detailed result after a sealed end", message)
        if view.discard and self.seat != state.taker:
            self.fail("saw the taker's discard after a sealed end", message)
        if view.chien and not chien_shown(state):
            self.fail("saw an unshown chien after a sealed end", message)
        if view.dummy is not None and not dummy_shown(state):
            self.fail("saw a dummy never shown after a sealed end", message)
        if view.partner is not None and not partner_known(state):
            self.fail("learnt a partner never revealed in play", message)
        self.check_cards(view_cards(view), message)

    def check(self, message: Any) -> None:
        if self.ended:
            self.fail("was sent a message after the table's end", message)
        state = self.state
        if isinstance(message, TableStart):
            if message.seat != self.seat:
                self.fail("was sent another seat's TableStart", message)
            self.check_view(message.view, message)
        elif isinstance(message, TableEvent):
            event = message.event
            if message.seat != self.seat:
                self.fail("was sent another seat's event", message)
            if isinstance(event, CardDiscarded) and self.seat != state.taker:
                self.fail("was told a card of the discard", message)
            if isinstance(event, ChienShown) and not chien_shown(state):
                self.fail("was shown the chien of a Garde Sans or Contre", message)
            if isinstance(event, DummyShown) and not dummy_shown(state):
                self.fail("was shown the dummy too early", message)
            if isinstance(event, PartnerRevealed) and not partner_known(state):
                self.fail("learnt the partner too early", message)
            if isinstance(event, TrumpDiscarded) and not is_trump(event.card):
                self.fail("was shown a discarded card that is not a trump", message)
            if not isinstance(event, CardCalled):
                self.check_cards(event_cards(event), message)
        elif isinstance(message, DecisionRequest):
            if message.player != self.seat or state.decider != self.seat:
                self.fail("was asked to decide for another player", message)
            if message.seat != state.to_act:
                self.fail("was asked for a seat not to act", message)
            if set(message.hand) != set(cards_of(state.hands[message.seat])):
                self.fail("was sent a hand that is not the seat's to act", message)
            self.check_cards(message.hand, message)
            self.check_cards(action_cards(message.legal_actions), message)
        elif isinstance(message, Notice):
            if message.seat != self.seat:
                self.fail("was sent another seat's notice", message)
            self.check_cards(action_cards([message.fallback] if message.fallback else []),
                             message)
        elif isinstance(message, TableEnd):
            if not self.runner.reveal:
                self.check_sealed_end(message)
            self.ended = True
        else:
            self.fail("was sent something unknown", message)
        self.checked += 1


def event_cards(event: Any) -> Iterator[int]:
    if isinstance(event, PoigneeShown):
        yield from event.poignee.cards
    elif isinstance(event, ChienShown | DummyShown):
        yield from event.cards
    elif hasattr(event, "trick"):
        yield from event.trick.cards
    elif hasattr(event, "card"):
        yield event.card


def through_the_wire(message: Any) -> Any:
    """``message`` as a bot decodes it from the bytes the arena writes (``arena.transport.wire``
    frames events and requests by hand, so those bytes are what must be checked)."""
    if isinstance(message, TableEnd):
        encoded = wire.serialize(convert.end_to_pb(message))
        raw = pb.ArenaMessage.FromString(encoded).table_end
        if message.cards is None and (raw.hands or raw.chien or raw.discard or raw.record_json):
            raise Leak(f"a sealed TableEnd carries the deal on the wire: {raw}")
        return convert.arena_message_from_pb(pb.ArenaMessage.FromString(encoded))
    if isinstance(message, TableStart):
        encoded = wire.serialize(convert.start_to_pb(message))
    elif isinstance(message, TableEvent):
        encoded = wire.event(message)
    elif isinstance(message, DecisionRequest):
        encoded = wire.request(message)
    else:
        return message
    decoded = convert.arena_message_from_pb(pb.ArenaMessage.FromString(encoded))
    if isinstance(message, TableEvent):  # the same as protobuf's own encoding
        assert decoded == convert.arena_message_from_pb(convert.event_to_pb(message))
    return decoded


class SpiedSeat(FakeSeat):
    """A random player whose every incoming message is checked, raw and through the wire."""

    spy: Spy

    def record(self, message: Any) -> None:
        self.received.append(message)
        if isinstance(message, TableEnd):
            decoded = through_the_wire(message)
            if not self.spy.runner.reveal:
                self.spy.check_sealed_end(decoded)
        else:
            self.spy.check(through_the_wire(message))
        self.spy.check(message)
        # What a reconnection would be sent now (once the deal is over, it is all revealed,
        # unless the table is sealed).
        state = self.spy.state
        if self.view and not state.is_over and self.spy.rng.random() < 0.2:
            self.spy.check_view(self.view(), "a view for a reconnection")
        if self.view and state.is_over and not self.spy.runner.reveal:
            self.spy.check_sealed_view(self.view(), "a view after the end")

    async def start(self, start: TableStart, view: Any) -> None:
        self.view = view
        self.record(start)

    async def send(self, event: TableEvent) -> None:
        self.record(event)

    async def ask(self, request: DecisionRequest) -> Any:
        self.record(request)
        return await self.policy(request)

    async def notice(self, notice: Notice) -> None:
        self.record(notice)

    async def end(self, end: TableEnd) -> None:
        self.record(end)


def trumpy_deal(players: int) -> Deal:
    """The first seat to speak holds the Kings, the bouts and low trumps; the chien one plain
    card and trumps: a taker there must put trumps in its discard, which are shown to all."""
    hand_size, chien_size = HAND_SIZES[players], CHIEN_SIZES[players]
    dealer = dealer_seats(players)[0]
    trumps = [f"T{n}" for n in range(2, 21)]
    hand = ["KS", "KH", "KD", "KC", "T1", "T21", "EX", *trumps[: hand_size - 7]]
    chien = ["2S", *trumps[hand_size - 7 : hand_size - 8 + chien_size]]
    first = first_seat(players, dealer)  # seat 1, but the non-dealer (0) with two players
    return make_deal(players, dealer, {first: " ".join(hand)}, chien=" ".join(chien))


async def play_spied(
    players: int, seed: int, rng: random.Random, forced: Contract | None, deal: Deal | None = None,
    reveal: bool = True,
) -> TableOutcome:
    """One random deal, every seat spied; the first seat to speak bids ``forced`` when it may,
    and the others pass more often than not."""
    dealers = dealer_seats(players)
    dealer = deal.dealer if deal else dealers[seed % len(dealers)]
    seats = [SpiedSeat(random_player(rng, pass_rate=0.8)) for _ in range(players)]
    if forced is not None:
        first = first_seat(players, dealer)
        policy = seats[first].policy

        async def bidder(request: DecisionRequest) -> Any:
            if request.phase is Phase.BIDDING and Bid(forced) in request.legal_actions:
                return Bid(forced)
            return await policy(request)

        seats[first].policy = bidder
    runner = make_runner(seats, seed=seed, dealer=dealer, deal=deal, reveal=reveal)
    for seat, fake in enumerate(seats):
        fake.spy = Spy(runner, seat, rng)
    outcome = await runner.run()
    assert all(fake.spy.ended for fake in seats)
    return outcome


@pytest.mark.parametrize("reveal", [True, False], ids=["revealed", "sealed"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
async def test_no_hidden_card_reaches_a_seat_before_the_end(players: int, reveal: bool) -> None:
    rng = random.Random(f"secrecy-{players}" + ("" if reveal else "-private"))
    seen: Counter[str] = Counter()
    forced_cycle = [None, *Contract]
    for seed in range(DEALS_PER_TABLE_SIZE):
        forced = forced_cycle[seed % len(forced_cycle)]
        deal = trumpy_deal(players) if seed % 20 == 1 else None  # with a Petite by seat 1
        outcome = await play_spied(players, seed, rng, forced, deal, reveal)
        state = outcome.state
        if state.contract is not None:
            seen[state.contract.name] += 1
        seen["trump discarded"] += bool(state.discarded_trumps)
        seen["poignee"] += bool(state.poignees)
        seen["partner"] += state.partner is not None
        seen["called card in the chien"] += state.called_card in state.deal.chien
        seen["dummy shown"] += dummy_shown(state)
    # The deals covered what the secrets are about.
    assert all(seen[contract.name] >= 10 for contract in Contract), seen
    assert seen["trump discarded"] >= 1, seen
    assert seen["poignee"] >= 1, seen
    if players == 2:
        assert seen["dummy shown"] >= 50, seen
    if players == 5:
        assert seen["partner"] >= 30 and seen["called card in the chien"] >= 1, seen


async def test_the_spy_catches_leaks() -> None:
    """The checks above would see a leak: hand-made leaks at the start of a deal."""
    seats = [FakeSeat() for _ in range(5)]
    runner = make_runner(seats, seed=3)
    spy = Spy(runner, 0, random.Random(0))
    other = runner.state.deal.hands[1][0]
    chien = runner.state.deal.chien[0]
    view = observe(runner.state, 0)
    leaks = [
        TableEvent("t", 0, 0, CardPlayed(1, other)),
        TableEvent("t", 0, 0, ChienShown(runner.state.deal.chien)),
        TableEvent("t", 0, 0, CardDiscarded(chien)),
        TableEvent("t", 0, 0, PartnerRevealed(2)),
        TableEvent("t", 1, 0, BidMade(1, PASS)),
        TableStart("t", 0, runner.state.options, 0, (), dataclasses.replace(view, partner=2)),
        TableStart("t", 0, runner.state.options, 0, (), dataclasses.replace(view, chien=(chien,))),
        TableStart("t", 0, runner.state.options, 0, (), observe(runner.state, 1)),
        DecisionRequest("t", 0, 1, Phase.BIDDING, (Play(other),), 1.0, 0.0, view.hand),
    ]
    for message in leaks:
        with pytest.raises(Leak):
            spy.check(message)
    spy.check(TableStart("t", 0, runner.state.options, 0, (), view))


async def test_the_spy_catches_leaks_of_the_dummy() -> None:
    """Two players: the dummy's hand before it is shown, and a request for the dummy's seat
    sent to the taker, would be seen."""
    seats = [FakeSeat() for _ in range(2)]
    runner = make_runner(seats, seed=3, dealer=1)
    spy = Spy(runner, 0, random.Random(0))
    dummy = runner.state.deal.hands[DUMMY]
    view = observe(runner.state, 0)
    leaks = [
        TableEvent("t", 0, 0, DummyShown(dummy)),
        TableStart("t", 0, runner.state.options, 1, (), dataclasses.replace(view, dummy=dummy)),
        DecisionRequest("t", DUMMY, 1, Phase.BIDDING, (PASS,), 1.0, 0.0, dummy, player=0),
    ]
    for message in leaks:
        with pytest.raises(Leak):
            spy.check(message)
    spy.check(TableStart("t", 0, runner.state.options, 1, (), view))


async def test_a_sealed_table_keeps_the_whole_outcome_for_the_store() -> None:
    """Only what the seats are sent is sealed: the outcome, stored and exported, is complete."""
    seats = [FakeSeat(player({seat: Contract.GARDE for seat in range(4)})) for _ in range(4)]
    outcome = await make_runner(seats, seed=5, reveal=False).run()
    assert outcome.result.outcome is DealOutcome.PLAYED
    assert outcome.record.deal == outcome.state.deal and outcome.result.summary is not None
    for fake in seats:
        (end,) = fake.of(TableEnd)
        assert (end.cards, end.record, end.revealed) == (None, None, False)
        assert end.result == DealResult(outcome.result.outcome, outcome.result.scores)


async def test_a_poignee_reveals_the_trumps_shown_and_never_the_ones_hidden() -> None:
    """Seat 1 holds 13 trumps and shows a simple poignée of ten, hiding its Petit, the 21 and
    the 12. Every seat is spied (a hidden trump in any message before it is played is a leak);
    the others are told of the poignée once, with the ten trumps shown, and are never sent
    anything while seat 1 chooses."""
    trumps = " ".join(f"T{n}" for n in range(1, 13))
    deal = make_deal(4, 0, {1: f"{trumps} T21 KS QS CS JS 10S", 2: "T13 T14 T15 T16"})
    rng = random.Random("poignee-secrecy")
    seats = [SpiedSeat(random_player(rng, pass_rate=1.0)) for _ in range(4)]
    hidden = [trump(1), trump(21), trump(12)]
    policy = seats[0].policy

    async def taker(request: DecisionRequest) -> Any:
        if request.phase is Phase.BIDDING:
            return Bid(Contract.GARDE_SANS)
        return await policy(request)

    async def shows(request: DecisionRequest) -> Any:
        if DeclarePoignee(PoigneeLevel.SIMPLE) in request.legal_actions:
            return DeclarePoignee(PoigneeLevel.SIMPLE)
        if request.phase is Phase.POIGNEE:
            return next(HideTrump(c) for c in hidden if HideTrump(c) in request.legal_actions)
        return await policy(request)

    seats[0].policy = taker
    seats[1].policy = shows
    runner = make_runner(seats, seed=1, dealer=0, deal=deal)
    for seat, fake in enumerate(seats):
        fake.spy = Spy(runner, seat, rng)
    outcome = await runner.run()  # a Leak raised by any spy fails the deal
    shown = outcome.state.poignees
    assert [p.seat for p in shown] == [1]
    assert shown[0].cards == tuple(trump(n) for n in range(11, 1, -1))
    choices = [r for r in seats[1].of(DecisionRequest) if r.phase is Phase.POIGNEE]
    assert len(choices) == 3
    for seat in (0, 2, 3):
        told = [e.poignee for e in seats[seat].events if isinstance(e, PoigneeShown)]
        assert told == list(shown)
        assert not any(r.phase is Phase.POIGNEE for r in seats[seat].of(DecisionRequest))
    # and the spy would have caught a poignée event naming a hidden trump
    spy = Spy(make_runner([FakeSeat() for _ in range(4)], seed=1, dealer=0, deal=deal), 0, rng)
    leaked = ShownPoignee(1, PoigneeLevel.SIMPLE, tuple(sorted(
        [trump(1), *(trump(n) for n in range(3, 12))], reverse=True
    )))
    with pytest.raises(Leak):
        spy.check(TableEvent("t", 0, 0, PoigneeShown(leaked)))
