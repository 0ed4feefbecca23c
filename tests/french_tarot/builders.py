"""Helpers for the rules tests: deals built by hand, and states driven to a given phase.

Cards are written in the notation of :mod:`arena.games.french_tarot.cards` (``KS``, ``10H``, ``CD``
for the Cavalier of diamonds, ``AH``, ``T1``..``T21``, ``EX``), space-separated.

:func:`make_deal` takes the cards that matter for a test and deals every other card
deterministically, so a test names only what it is about::

    deal = make_deal(4, dealer=0, hands={1: "KS QS 2S T21"}, chien="EX")

:func:`start_play` then bids, calls, discards and answers the chelem question so that the state
is at the first card, and :func:`play_out` finishes a deal with a simple, deterministic policy.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    CallCard,
    Card,
    ChelemChoice,
    Contract,
    Deal,
    DealResult,
    DeclarePoignee,
    Discard,
    GameState,
    HideTrump,
    Phase,
    Play,
    PoigneeLevel,
    TableOptions,
    apply,
    card_name,
    format_cards,
    legal_actions,
    parse_action,
    parse_cards,
)
from arena.games.french_tarot.cards import DECK_SIZE, HALF_POINTS, mask_of
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES, SEATS, dealer_seats


def cards(text: str) -> list[Card]:
    """The cards of ``text``, in the order written."""
    return parse_cards(text)


def mask(text: str) -> int:
    return mask_of(parse_cards(text))


def names(card_list: Iterable[Card]) -> str:
    """Card ids back to notation, lowest id first: handy in assertion messages."""
    return format_cards(sorted(card_list))


def half_points(card_list: Iterable[Card]) -> int:
    return sum(HALF_POINTS[c] for c in card_list)


def make_deal(
    players: int,
    dealer: int | None = None,
    hands: Mapping[int, str] | None = None,
    chien: str = "",
    *,
    allow_petit_sec: bool = False,
) -> Deal:
    """A valid deal holding the given cards where asked.

    ``hands`` maps a seat to some (or all) of its cards, ``chien`` names some (or all) of the
    chien. Every card not named is dealt, lowest card id first, round-robin to the seats that
    still lack cards (seat 0, 1, ...) and then the chien, skipping any part that is full, so the
    same arguments always give the same deal. Raises ValueError for a repeated card, a part
    given too many cards, or (unless ``allow_petit_sec``) a hand that is petit sec.

    With two players the deal has a third hand, the dummy's (seat 2), and seat 1 deals;
    ``dealer`` None is the first seat that may deal (0; with two players 1).
    """
    if dealer is None:
        dealer = dealer_seats(players)[0]
    hand_size, chien_size = HAND_SIZES[players], CHIEN_SIZES[players]
    seats = SEATS[players]
    parts: list[list[Card]] = [parse_cards((hands or {}).get(s, "")) for s in range(seats)]
    parts.append(parse_cards(chien))
    for seat in hands or {}:
        if not 0 <= seat < seats:
            raise ValueError(f"seat {seat} is not a seat of a {players}-player table")
    named = [c for part in parts for c in part]
    repeated = {c for c in named if named.count(c) > 1}
    if repeated:
        raise ValueError(f"named more than once: {names(repeated)}")
    sizes = [hand_size] * seats + [chien_size]
    for index, part in enumerate(parts):
        if len(part) > sizes[index]:
            where = "the chien" if index == seats else f"seat {index}"
            raise ValueError(f"{len(part)} cards named for {where}, it holds {sizes[index]}")
    used = set(named)
    rest = [c for c in range(DECK_SIZE) if c not in used]
    target = 0
    for card in rest:
        while len(parts[target]) >= sizes[target]:
            target = (target + 1) % (seats + 1)
        parts[target].append(card)
        target = (target + 1) % (seats + 1)
    deal = Deal(players, dealer, tuple(tuple(p) for p in parts[:seats]), tuple(parts[seats]))
    if not allow_petit_sec and deal.petit_sec_seats():
        raise ValueError(f"seats {deal.petit_sec_seats()} are petit sec:\n{deal.describe()}")
    return deal


def new_game(deal: Deal, *, beginner: bool = False) -> GameState:
    return GameState(deal, TableOptions(players=deal.players, beginner=beginner))


def act(state: GameState, *actions: str) -> None:
    """Apply actions in text notation (``"pass"``, ``"bid garde"``, ``"play KS"``), each by the
    seat to act."""
    for text in actions:
        apply(state, parse_action(text), state.to_act)


def bid_round(state: GameState, taker: int | None, contract: Contract = Contract.GARDE) -> None:
    """Bidding where ``taker`` bids ``contract`` and every other seat passes (all pass if None)."""
    assert state.phase is Phase.BIDDING
    while state.phase is Phase.BIDDING:
        seat = state.to_act
        action: Action = Bid(contract) if seat == taker else PASS
        apply(state, action, seat)


def start_play(
    deal: Deal,
    taker: int,
    contract: Contract = Contract.GARDE_SANS,
    *,
    call: str | None = None,
    discard: str | None = None,
    chelem: bool = False,
    beginner: bool = False,
) -> GameState:
    """A state at the first card: ``taker`` took with ``contract`` (every other seat passed),
    called ``call`` (5 players; default the first callable card), discarded ``discard``
    (default the first legal card each time) and announced a chelem or not."""
    state = new_game(deal, beginner=beginner)
    bid_round(state, taker, contract)
    if state.phase is Phase.CALLING:
        choice = CallCard(parse_cards(call)[0]) if call else legal_actions(state)[0]
        apply(state, choice, taker)
    if state.phase is Phase.DISCARDING:
        for card in parse_cards(discard or ""):
            apply(state, Discard(card), taker)
        while state.phase is Phase.DISCARDING:
            apply(state, legal_actions(state)[0], taker)
    if state.phase is Phase.CHELEM:
        apply(state, ChelemChoice(chelem), taker)
    assert state.phase is Phase.PLAYING, state
    return state


def legal_plays(state: GameState) -> tuple[Play, ...]:
    """The legal Play actions (poignée offers left out)."""
    return tuple(a for a in legal_actions(state) if isinstance(a, Play))


def plays(text: str) -> tuple[Play, ...]:
    """The Play actions of ``text`` in the engine's order (lowest card id first)."""
    return tuple(Play(c) for c in sorted(parse_cards(text)))


def play(state: GameState, text: str) -> None:
    """Play the cards of ``text`` in order, each by the seat to act."""
    for card in parse_cards(text):
        apply(state, Play(card), state.to_act)


def choose_card(
    state: GameState, early: Mapping[int, str] | None = None, late: Mapping[int, str] | None = None
) -> Card:
    """The card :func:`play_out` plays now.

    The seat plays the first of its ``early`` cards that is legal, else its lowest legal card
    that is not one of its ``late`` cards, else the first legal card of ``late``.
    """
    seat = state.to_act
    assert seat is not None
    legal = [a.card for a in legal_plays(state)]
    for card in parse_cards((early or {}).get(seat, "")):
        if card in legal:
            return card
    keep = parse_cards((late or {}).get(seat, ""))
    free = [c for c in legal if c not in keep]
    if free:
        return free[0]
    return next(c for c in keep if c in legal)


def play_out(
    state: GameState,
    *,
    early: Mapping[int, str] | None = None,
    late: Mapping[int, str] | None = None,
    poignees: Mapping[int, PoigneeLevel] | None = None,
    hide: Mapping[int, str] | None = None,
) -> DealResult:
    """Finish the deal with :func:`choose_card`; seats in ``poignees`` show that level first,
    hiding their ``hide`` trumps (by default the first legal ones: the highest)."""
    assert state.phase is Phase.PLAYING, state
    while state.phase is Phase.PLAYING:
        seat = state.to_act
        assert seat is not None
        level = (poignees or {}).get(seat)
        if level is not None and DeclarePoignee(level) in legal_actions(state):
            show_poignee(state, level, (hide or {}).get(seat, ""))
        apply(state, Play(choose_card(state, early, late)), seat)
    assert state.result is not None
    return state.result


def show_poignee(state: GameState, level: PoigneeLevel, hide: str = "") -> None:
    """The seat to act declares ``level`` and hides the trumps of ``hide`` while it has a choice
    (then the first legal ones, the highest)."""
    seat = state.to_act
    apply(state, DeclarePoignee(level), seat)
    wanted = [HideTrump(c) for c in parse_cards(hide)]
    while state.phase is Phase.POIGNEE:
        legal = legal_actions(state)
        apply(state, next((a for a in wanted if a in legal), legal[0]), seat)


def trick_text(cards_played: Iterable[Card]) -> str:
    """A trick's cards in play order, in notation."""
    return " ".join(card_name(c) for c in cards_played)


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything :func:`apply` may change, to check that a refused action changed nothing."""
    return (
        state.phase,
        state.to_act,
        tuple(state.hands),
        tuple(state.history),
        tuple(state.bids),
        state.contract,
        state.taker,
        state.called_card,
        state.partner,
        state.partner_revealed,
        state.discard,
        tuple(state.discarded_trumps),
        state.chelem_announced,
        tuple(state.poignees),
        state.poignee_done,
        state.poignee_level,
        state.poignee_hidden,
        tuple(state.tricks),
        tuple(state.trick),
        state.trick_leader,
        state.result,
        legal_actions(state),
    )
