"""The search bot's decisions before the card play, by simulation: the bid, the called King, the
discard and the poignée.

Each is decided like the card play (:mod:`clients.search_bot`): the
:class:`~clients.sdk.Sampler` draws the hidden cards from what the seat has seen (in the
bidding, every other hand and the chien), every candidate is played out on the same draws, and
the candidate with the best total score for this seat wins. A play-out (:func:`playout`) goes
from any phase to the end of the deal: the other seats bid by the heuristic's rules (so that a
pass is worth what the others would then bid and make, or nothing when all pass), the taker
calls and discards by them, nobody announces a chelem or shows a poignée, and the cards are
played by the search bot's rollout policy (:func:`~clients.search_rollout.finish`).

Candidates:

- the bid: passing and every legal bid (or those near the hand's count, :func:`bid_candidates`),
  each deal's card play shared between the bids that reach the same start (:func:`bid_scores`);
- the call (5 players): every card the taker may call;
- the discard: the heuristic's plan and a few others (:func:`discard_candidates`: each suit
  voided first, low cards only, the unguarded Queens and Cavaliers put away);
- the poignée: not showing, and each level the hand may show.

Rollouts are biased: the quick policy plays the taker's side worse than real play does. Played
by the heuristic from the same position (after the heuristic's bidding, call and discard;
``python -m bench.bots --rollout-bias 400 --seed 90000``), the taker's side took 19.9
half-points more than in the rollout with 3 players (95 % ±1.8, 305 deals taken of 400), 13.8
with 4 (±2.4, 217) and 7.8 with 5 (±2.2, 380). Uncorrected,
the bidding passed on most hands the rules bid. With ``shift`` (the search bot's
``taker_shift``), each play-out is scored as if the taker's side had taken :data:`TAKER_SHIFT`
more half-points (the engine's scoring, :func:`~arena.games.french_tarot.scoring.settle`, on the
shifted summary: the contract won or lost moves with it); measured, that did not pay (below), so
it is off by default. Either way the rules' choice stays unless the simulation prefers another
by ``trust`` standard errors of the paired difference over the draws (:func:`choose`).

Measured, paired on the same boards (``python -m bench.bots --samples 10 --decision-samples 60
--decision-variants rules,bid,...``, seed 2026; with fixed draws the card play is the same in
every variant, so the difference is the decision's; measured with the first rollout policy,
before it saw the drawn deal, and the bias above too), per board against the rules:

- the bid, before the calibration: +3.9 with 4 players (95 % -1.6 to +9.4, 100 boards) but
  -18.3 with 3 (-31.3 to -5.2, 60 boards): it passed on most hands the rules bid; after it,
  -13.7 with 4 (-26.3 to -1.1) and -39.6 with 3 (-62.9 to -16.3): it overbid, Gardes Sans
  among them. Neither beat the rules. With play-outs by the heuristic's habits
  (:func:`~clients.search_rollout.rules_card`, whose bias is a third of the quick rollout's),
  150 draws, every legal bid and the card play shared between the bids (:func:`bid_scores`),
  ``python -m bench.bots --samples 10 --decision-samples 150 --decision-variants
  poignee,bid+poignee --bid-window -1 --boards 200``: +3.5 per board with 3 players (-0.5 to
  +7.4), +3.1 with 4 (-1.2 to +7.4), +3.3 pooled (+0.4 to +6.2), -4.5 with 5 (-14.4 to +5.4,
  120 boards): the bot bids so with 3 and 4 players, and with 5 once its play-outs give the
  taker's side 6 half-points more (+6.5, +0.2 to +12.8, 300 boards at 20 card draws:
  docs/search-bot.md, "Issue 28, sixth session");
- the discard (before the calibration): -6.0 with 4 players (-10.3 to -1.7, 100 boards): the
  rules' discard stays;
- the poignée: +0.6 with 4 players (-0.0 to +1.2, 100 boards; 4 boards changed); with the
  calibration, the same as the rules on every board; uncalibrated with 3 players (60 boards)
  and calibrated with 5 (40 boards), the same as the rules on every board: the poignée is
  simulated by default (it never lost);
- the call (5 players, with the calibration): +2.7 (-3.0 to +8.5, 40 boards; 11 changed),
  within the noise: the rules call.
- with play-outs by the heuristic's habits (the search bot's ``decision_rollout="rules"``,
  ``--decision-rollout rules --decision-samples 100 --samples 10``): the discard -2.3 with 4
  players (-8.6 to +4.1, 60 boards; 9 changed), the call -2.1 with 5 (-6.0 to +1.9, 40
  boards; 6 changed): the rules discard and call.

The chelem stays the heuristic's rule (announced only when certain), not simulated: the
rollouts see every hand, so they would find chelems that real play does not make, and an
announced chelem that fails costs 200 points (not measured).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from arena.games.french_tarot import (
    NO_CHELEM,
    PASS,
    POIGNEE_THRESHOLDS,
    Action,
    Bid,
    CallCard,
    Contract,
    Discard,
    GameState,
    Phase,
    PoigneeLevel,
    ShownPoignee,
)
from arena.games.french_tarot.actions import BIDS
from arena.games.french_tarot.cards import (
    BOUTS_MASK,
    CAVALIER,
    HALF_POINTS,
    KING,
    QUEEN,
    TOTAL_HALF_POINTS,
    Card,
    Hand,
    cards_of,
    is_bout,
    is_trump,
    mask_half_points,
    mask_of,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, HAND_SIZES
from arena.games.french_tarot.game import legal_actions, poignee_cards
from arena.games.french_tarot.scoring import DealSummary, settle
from arena.games.french_tarot.simulate import apply_unchecked, copy_state, show_poignee_unchecked
from clients.heuristic_bot import (
    BID_THRESHOLDS,
    call_choice,
    discard_plan,
    hand_points,
    wanted_contract,
)
from clients.sdk import DeadlinePassedError, Sampler, TableView
from clients.sdk.sampler import EXACT_LIMIT
from clients.search_rollout import Policy, finish

TAKER_SHIFT = {3: 20, 4: 14, 5: 8}
"""Half-points the rollouts' taker side falls short of real play, by players (see above)."""

DECISIONS = ("bid", "call", "discard", "poignee")
"""The decisions before the card play that the search bot may take by simulation."""

Outcome = Callable[[GameState], None]
"""Applies one candidate to a copy of the drawn state (then the deal is played out)."""


# ----------------------------------------------------------------------- the play-out
def playout(state: GameState, policy: Policy | None = None) -> None:
    """Play ``state`` to the end of the deal from any phase (see the module docstring), the
    cards by ``policy`` (the card search's :func:`~clients.search_rollout.rollout_card` by
    default)."""
    while state.phase is not Phase.FINISHED:
        phase = state.phase
        if phase is Phase.PLAYING:
            finish(state, policy)
        elif phase is Phase.BIDDING:
            apply_unchecked(state, rules_bid(state))
        elif phase is Phase.CALLING:
            assert state.taker is not None
            options = [a.card for a in legal_actions(state) if isinstance(a, CallCard)]
            apply_unchecked(state, CallCard(call_choice(cards_of(state.hands[state.taker]),
                                                        options)))
        elif phase is Phase.DISCARDING:
            assert state.taker is not None
            legal = {a.card for a in legal_actions(state) if isinstance(a, Discard)}
            left = CHIEN_SIZES[state.players] - state.discard.bit_count()
            plan = discard_plan(cards_of(state.hands[state.taker]), legal, left,
                                state.called_card)
            for card in plan:
                apply_unchecked(state, Discard(card))
        elif phase is Phase.CHELEM:
            apply_unchecked(state, NO_CHELEM)
        else:  # pragma: no cover - no poignée is declared in a play-out
            raise AssertionError(f"a play-out reached the {phase.value} phase")


def rules_bid(state: GameState, counted: dict[int, Contract | None] | None = None) -> Action:
    """The heuristic's bid for the seat to act (:meth:`HeuristicBot.bid` on the full state).
    ``counted``: each seat's wanted contract already counted on this deal (a hand does not
    change in the bidding, and a bid's play-outs ask each seat once per candidate), filled as
    it goes."""
    seat = state.to_act
    assert seat is not None
    if counted is None or seat not in counted:
        wanted = wanted_contract(cards_of(state.hands[seat]), state.players)
        if counted is not None:
            counted[seat] = wanted
    else:
        wanted = counted[seat]
    if wanted is None:
        return PASS
    floor = state.contract or 0
    open_ = [c for c in state.options.contracts if floor < c <= wanted]
    return BIDS[max(open_)] if open_ else PASS


def bolder_contract(hand: Sequence[Card], players: int, boldness: float) -> Contract | None:
    """:func:`~clients.heuristic_bot.wanted_contract` for a player who counts its hand
    ``boldness`` points higher (the heuristic's thresholds were calibrated for the heuristic's
    own card play: a player that plays its contracts better breaks even on weaker hands)."""
    if not boldness:
        return wanted_contract(hand, players)
    scale = HAND_SIZES[players] / 18
    trumps = sum(1 for c in hand if is_trump(c))
    bouts = sum(1 for c in hand if is_bout(c))
    if trumps < 5 * scale and bouts == 0:
        return None
    points = hand_points(hand, players) + boldness
    thresholds = BID_THRESHOLDS[players]
    for contract, threshold in zip(reversed(Contract), reversed(thresholds), strict=True):
        if points >= threshold:
            return contract
    return Contract.PETITE if trumps >= 8 * scale and bouts >= 1 else None


# ---------------------------------------------------------------------- the choice
@dataclass(frozen=True, slots=True)
class Budget:
    """How many draws a decision may take: ``draws`` at most, and none started once the
    slowest so far would end past ``deadline`` (a ``clock()`` time; None: no time limit)."""

    draws: int
    deadline: float | None
    clock: Callable[[], float]
    shift: bool = False
    """Whether the play-outs are scored with :data:`TAKER_SHIFT` (:func:`calibrated_score`)."""
    exact_limit: int = EXACT_LIMIT
    """The steps the sampler's exact count may take (:meth:`TimedSearch.exact_limit
    <clients.search_timing.TimedSearch.exact_limit>`); it stops at the deadline all the same."""
    policy: Policy | None = None
    """The play-outs' card policy (None: the card search's rollout)."""
    bonus: int = 0
    """Half-points given to the taker's side in every play-out's score (``bid_shift``)."""
    others_bonus: int | None = None
    """In the bid's play-outs (:func:`bid_scores`), the half-points given to the taker's side
    when another seat than the bidder takes (None: :attr:`bonus`). The bid's shift stands for
    both the play-outs' shortfall and the bot's own play as taker; another seat's play as taker
    is only the first (``bid_shift_others``)."""
    until: Callable[[float | None], float | None] | None = None
    """The deadline kept before each new draw, from ``deadline``: earlier when other tables'
    decisions start waiting meanwhile (:meth:`SearchTurns.until
    <clients.search_turns.SearchTurns.until>`); None: ``deadline`` itself."""


def candidate_scores(
    table: TableView, seed: int, outcomes: Sequence[Outcome], budget: Budget
) -> list[list[int]]:
    """This seat's score for each candidate, one list per draw (every candidate on the same
    draws); fewer draws when the deadline comes first (possibly none)."""
    seat = table.seat

    def draw(base: GameState) -> list[int] | None:
        row = []
        for outcome in outcomes:
            if budget.deadline is not None and budget.clock() > budget.deadline:
                return None  # a stalled machine: drop this draw rather than answer late
            state = copy_state(base)
            outcome(state)
            playout(state, budget.policy)
            row.append(played_score(state, seat, budget.shift, bonus=budget.bonus))
        return row

    return drawn_scores(table, seed, budget, draw)


def bid_scores(
    table: TableView, seed: int, bids: Sequence[Action], budget: Budget
) -> list[list[int]]:
    """:func:`candidate_scores` for the bids, each deal's card play shared between them.

    After each candidate bid the others bid by the rules; the candidates that end with the same
    taker playing with the chien (a Petite or a Garde), or the same taker without it (a Garde
    Sans or a Garde Contre: no discard, the chien aside), reach the same card play (no play-out
    reads the contract), so each drawn deal is played out once per such starting position and
    scored for each contract (:func:`played_score`: the chien's cards change sides between a
    Garde Sans and a Garde Contre). Sharing the last two saves a play-out in three of a first
    speaker's draws: more draws for a bid in the same time."""
    seat = table.seat

    def draw(base: GameState) -> list[int] | None:
        played: dict[tuple[int, bool], GameState] = {}
        counted: dict[int, Contract | None] = {}
        row = []
        for bid in bids:
            state = copy_state(base)
            apply_unchecked(state, bid)
            while state.phase is Phase.BIDDING:
                apply_unchecked(state, rules_bid(state, counted))
            if state.phase is Phase.FINISHED:  # everybody passed
                row.append(played_score(state, seat, budget.shift, bonus=budget.bonus))
                continue
            assert state.taker is not None and state.contract is not None
            contract = state.contract
            key = (state.taker, contract.chien_shown)
            done = played.get(key)
            if done is None:
                if budget.deadline is not None and budget.clock() > budget.deadline:
                    return None  # a stalled machine: drop this draw rather than answer late
                playout(state, budget.policy)
                done = played[key] = state
            bonus = budget.bonus
            if done.taker != seat and budget.others_bonus is not None:
                bonus = budget.others_bonus
            row.append(played_score(done, seat, budget.shift, contract, bonus))
        return row

    return drawn_scores(table, seed, budget, draw)


def drawn_scores(
    table: TableView, seed: int, budget: Budget, draw: Callable[[GameState], list[int] | None]
) -> list[list[int]]:
    """``draw`` on the sampler's deals, ``budget.draws`` of them or fewer when the deadline
    comes first: no draw starts once the slowest so far would end past it."""
    clock = budget.clock
    sampler = Sampler(table, seed=seed, exact_limit=budget.exact_limit, deadline=budget.deadline,
                      clock=clock)
    draws: list[list[int]] = []
    slowest = 0.0
    deadline, until = budget.deadline, budget.until
    while len(draws) < budget.draws:
        tick = clock()
        end = deadline if until is None else until(deadline)
        if end is not None and tick + slowest > end:
            break
        try:
            base = sampler.sample().state()
        except DeadlinePassedError:
            break
        row = draw(base)
        if row is None:
            break
        draws.append(row)
        slowest = max(slowest, clock() - tick)
    return draws


def played_score(
    state: GameState, seat: int, shift: bool, contract: Contract | None = None,
    bonus: int = 0,
) -> int:
    """``seat``'s score for a played-out deal: scored at ``contract`` (the card play was the
    same) when given, with the rollouts' bias corrected when ``shift``
    (:func:`calibrated_score`), and ``bonus`` more half-points for the taker's side (the bid's
    ``bid_shift``: its play-outs take less than the bot's own play as taker)."""
    result = state.result
    assert result is not None
    summary = result.summary
    if summary is None or result.taker is None:
        return result.scores[seat]  # everybody passed
    if contract is not None and contract != summary.contract:
        summary = at_contract(summary, contract, state.chien)
    elif not shift and not bonus:
        return result.scores[seat]
    added = (TAKER_SHIFT.get(summary.players, 0) if shift else 0) + bonus
    if added:
        summary = replace(summary, taker_half_points=max(0, min(
            TOTAL_HALF_POINTS, summary.taker_half_points + added)))
    return settle(summary, result.taker, result.partner)[seat]


def at_contract(summary: DealSummary, contract: Contract, chien: Hand) -> DealSummary:
    """``summary`` of a deal played out as if bid at ``contract``, the card play the same: a
    contract with the chien shown for one with it shown, a Garde Sans for a Garde Contre or
    back (the ``chien``'s cards and bouts move between the sides, as the engine counts them in
    :func:`~arena.games.french_tarot.game.summarize`)."""
    before = summary.contract
    if before.chien_shown != contract.chien_shown:
        raise ValueError(f"a {before.name} and a {contract.name} are not the same card play")
    half, bouts = summary.taker_half_points, summary.bouts
    sign = (contract is Contract.GARDE_SANS) - (before is Contract.GARDE_SANS)
    if sign:
        half += sign * mask_half_points(chien)
        bouts += sign * (chien & BOUTS_MASK).bit_count()
    return replace(summary, contract=contract, taker_half_points=half, bouts=bouts)


def calibrated_score(state: GameState, seat: int) -> int:
    """``seat``'s score for a played-out deal, the taker's side given :data:`TAKER_SHIFT`."""
    return played_score(state, seat, True)


def bid_candidates(
    hand: Sequence[Card], players: int, bids: Sequence[Action], rules: Action,
    window: float | None,
) -> list[Action]:
    """The bids worth simulating: the rules' bid, and those whose threshold
    (:data:`~clients.heuristic_bot.BID_THRESHOLDS`; a pass: the Petite's) is within ``window``
    points of the hand's count (all of them with None). Far from a threshold the rules'
    choice is clear, and a candidate less is a play-out less."""
    if window is None:
        return list(bids)
    points = hand_points(hand, players)
    thresholds = dict(zip(Contract, BID_THRESHOLDS[players], strict=True))

    def near(bid: Action) -> bool:
        contract = bid.contract if isinstance(bid, Bid) else Contract.PETITE
        return bid == rules or abs(points - thresholds[contract]) <= window

    return [bid for bid in bids if near(bid)]


def choose(draws: Sequence[Sequence[int]], prior: int, trust: float) -> int:
    """The candidate with the best total, if it beats the ``prior`` (the rules' choice) by
    ``trust`` standard errors of their paired difference over the draws; else the prior."""
    if len(draws) < 2:
        return prior
    count = len(draws[0])
    totals = [sum(row[i] for row in draws) for i in range(count)]
    best = max(range(count), key=lambda i: (totals[i], i == prior, -i))
    if best == prior:
        return prior
    diffs = [row[best] - row[prior] for row in draws]
    n = len(diffs)
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean > trust * math.sqrt(variance / n) else prior


# ------------------------------------------------------------------- the candidates
def applying(*actions: Action) -> Outcome:
    def outcome(state: GameState) -> None:
        for action in actions:
            apply_unchecked(state, action)
    return outcome


def showing(seat: int, shown: ShownPoignee | None) -> Outcome:
    def outcome(state: GameState) -> None:
        state.poignee_done |= 1 << seat
        if shown is not None:
            show_poignee_unchecked(state, shown)
    return outcome


def poignee_shown(table: TableView, level: int) -> ShownPoignee:
    """The poignée ``level`` as this hand would show it (its count is all a play-out reads)."""
    chosen = PoigneeLevel(level)
    cards = poignee_cards(mask_of(table.hand), table.options.players, chosen)
    assert cards is not None
    return ShownPoignee(table.seat, chosen, cards)


def poignee_levels(players: int) -> dict[int, int]:
    return {int(level): need for level, need in POIGNEE_THRESHOLDS[players].items()}


def discard_candidates(
    hand: Sequence[Card], legal: set[Card], count: int, called: Card | None
) -> list[tuple[Card, ...]]:
    """Whole discards to compare, the heuristic's plan first: for each suit that can be voided,
    that suit first and the plan's fill after it; the lowest cards of the longest suits (no
    void); and the plan with its low cards swapped for the Queens and Cavaliers of suits held
    short without their King (points put away before the opponents catch them)."""
    plan = discard_plan(hand, legal, count, called)
    seen = {frozenset(plan)}
    found = [tuple(plan)]

    def add(cards: Sequence[Card]) -> None:
        key = frozenset(cards)
        if len(key) == count and key <= legal and key not in seen:
            seen.add(key)
            found.append(tuple(sorted(key)))

    plain = sorted(c for c in legal if c < 56)
    if len(plain) < count:
        return found  # trumps must go: the plan is forced
    suits: dict[int, list[Card]] = {}
    for c in hand:
        if c < 56:
            suits.setdefault(c // 14, []).append(c)
    for _, cards in sorted(suits.items()):
        if len(cards) <= count and all(c in legal for c in cards):
            rest = discard_plan([c for c in hand if c not in cards],
                                legal - set(cards), count - len(cards), called)
            add([*cards, *rest])
    by_length = sorted(plain, key=lambda c: (HALF_POINTS[c] > 1, -len(suits[c // 14]), c % 14))
    add(by_length[:count])
    faces = [c for c in plain if c % 14 in (QUEEN, CAVALIER) and c not in plan
             and c + (KING - c % 14) not in hand and len(suits[c // 14]) <= 3]
    faces.sort(key=lambda c: (-HALF_POINTS[c], c))
    if faces:
        keep = [c for c in plan if HALF_POINTS[c] > 1]
        low = sorted((c for c in plan if HALF_POINTS[c] <= 1),
                     key=lambda c: (len(suits.get(c // 14, [])), c % 14))
        swapped = [*keep, *faces[:len(low)]]
        fill = [c for c in low if c not in swapped]
        add([*swapped, *fill][:count])
    return found
