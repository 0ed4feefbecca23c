"""A search player: for each card it may play, it plays the deal out over many deals consistent
with what it has seen, and plays the card that scores best on average.

This is determinized Monte Carlo, the method of bridge's GIB and skat's Kermit: the
:class:`~clients.sdk.Sampler` draws the hidden hands (uniformly among the deals the rules
allow, given the voids, poignées, chien and discard seen); for each draw, each legal card is
played and the deal finished by a fast rollout policy (:func:`rollout_card`) through the
engine's simulation path (:mod:`arena.games.french_tarot.simulate`); the card with the best total
score for this seat wins. Every card is tried on the same draws, so the comparison between cards is
not blurred by the luck of the draws.

The rollout policy plays the drawn deal as seen by everyone (every hand is known in it): a seat
charges points only on a trick no opponent still to play can take, takes a trick with the
cheapest card that keeps it, and leads a master card (the highest of its suit still in play,
which no opponent can trump) before anything else. That is what the evaluation of a card is worth
at the end of the deal. Against the first policy (charge on a high card, win with the lowest card
that beats the best, lead low), paired on the same boards at 20 draws (``python -m bench.bots
--samples 20``, then ``--paired``): +1.9 per board with 4 players (-2.8 to +6.5, 100 boards;
+5.6 against the heuristic instead of +3.7), +0.4 with 3 (-5.2 to +6.0, 50 boards), +1.4 with
5 (-6.5 to +9.2, 50 boards): better everywhere, proven nowhere. It costs about 1.4 times as much
per rollout, and at 100 ms a decision the two tied (-0.1, -2.6 to +2.5, 100 boards, on a machine
so loaded that the bot drew about 65 deals a second).

With ``solver_cards=N`` the last N cards of each hand are played out exactly, by the SDK's
solver (:func:`~clients.sdk.solve`), instead of by the policy. It is off by default: at 3
cards it changed next to nothing (+0.01 per board, -0.02 to +0.05, paired on 100 boards at 20
draws) for 1.6 times the search's time, since the last tricks are mostly forced, and from 4
cards a solve costs about 1,000 rollouts.

The decisions before the card play (the bid, the called King, the discard, the poignée) are
taken by simulation or by the heuristic's rules (:class:`~clients.heuristic_bot.HeuristicBot`),
as measured best (:mod:`clients.search_bidding`, option ``simulate``); the chelem is the rules'.

Two players with the dummy: the view is the player's own (``DecisionRequest.player``); asked
for the dummy's seat (``request.seat``) when it defends, it tries the dummy's legal cards and
scores each draw for itself, the defender, whose side the dummy's hand plays on. The sampler
draws the dummy's hand while it is hidden; once shown, the taker knows every card but the
defender's (and a hidden chien's), so the draws differ little or not at all.

Strength is a knob: ``samples=N`` plays N draws per decision, and then the same seed always
gives the same card for the same position (tournaments with it stay reproducible: the draws are
seeded from the bot's seed, the seat's dealt hand and the cards played, never from the table id
or the clock), on any machine that makes the N draws before the request's deadline less the
margin below; when the deadline comes first, it answers with the draws made by then rather
than late. Without ``samples``, it fills the time to the request's deadline (the view's: its
arrival at the SDK plus the time limit) less a margin: a share of the limit (for the
transport; it grows by a quarter with each timeout the arena reports, since the arena's clock
sees what the bot's does not), plus how far its recent decisions overran the time they planned
(measured as it plays, a decaying maximum); within that, it starts no draw once the slowest
draw of the decision so far would end past it, and drops a draw the clock overtakes. One bot
searches for one table at a time, at French Tarot and Tre e Venticinque tables alike
(:mod:`clients.search_turns`): a decision waiting for its turn spends its own time, and then
(in time mode) shares what is left with the decisions still waiting.
"""

from __future__ import annotations

import hashlib
import math
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from arena.games.french_tarot import (
    PASS,
    Action,
    Bid,
    CallCard,
    DeclarePoignee,
    Discard,
    GameState,
    Pass,
    Play,
)
from arena.games.french_tarot.cards import (
    Card,
)
from arena.games.french_tarot.deal import CHIEN_SIZES, DUMMY
from arena.games.french_tarot.simulate import (
    copy_state,
    play_unchecked,
    taker_side,
)
from clients.heuristic_bot import HeuristicBot, choose_card, seat_view
from clients.sdk import DeadlinePassedError, DecisionRequest, Notice, Sampler, TableView, solve
from clients.sdk.solver import DEFAULT_SOLVER_CARDS, cards_left
from clients.search_bidding import (
    DECISIONS,
    Budget,
    Outcome,
    applying,
    bid_candidates,
    bid_scores,
    bolder_contract,
    candidate_scores,
    choose,
    discard_candidates,
    poignee_shown,
    showing,
)
from clients.search_collector import COLLECTOR
from clients.search_inference import agreeing_sample, bid_ranges, disagreements
from clients.search_reply import Replies
from clients.search_rollout import Policy, equivalent_classes, rules_card

# The rollout policy lives in its own module (the bidding search plays it out too); its names
# stay importable from here.
from clients.search_rollout import _charge as _charge
from clients.search_rollout import _keeps as _keeps
from clients.search_rollout import _master as _master
from clients.search_rollout import _threats as _threats
from clients.search_rollout import finish as finish
from clients.search_rollout import rollout_card as rollout_card
from clients.search_timing import TimedSearch
from clients.tre_search import GAME as TRE_E_VENTICINQUE
from clients.tre_search import tre_play

SIMULATED = ("poignee",)
"""The decisions before the card play taken by simulation at a player count
:data:`SIMULATED_BY_PLAYERS` does not name: the poignée, the one that did not lose against the
rules with the quick rollouts (+0.6 per board, 95 % -0.0 to +1.2, 4 players; the discard lost:
see :mod:`clients.search_bidding`); the others follow the heuristic's rules."""
SIMULATED_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    3: ("bid", "poignee"),
    4: ("bid", "poignee"),
    5: ("bid", "poignee"),
}
"""The decisions taken by simulation by default, by the number of players (docs/search-bot.md,
"The bid by simulation"): the bid where its play-outs by the heuristic's habits
(:func:`~clients.search_rollout.rules_card`) were measured to pay against the rules' bid (3
and 4 players: +3.3 per board pooled, 95 % +0.4 to +6.2, 400 boards); with 5, unshifted, it lost
(-4.5, -14.4 to +5.4, 120 boards), and with :data:`BID_SHIFT_BY_PLAYERS`'s 6 half-points it
gained (docs/search-bot.md, "Issue 28, sixth session"); with two it was not measured with these
play-outs."""
BID_SHIFT_BY_PLAYERS: dict[int, int] = {3: 6, 4: 12, 5: 6}
"""Half-points given to the taker's side in the bid's play-outs by default, by the number of
players (docs/search-bot.md, "Issue 28, fifth session"): the bid's rules rollouts take about 6
half-points less for the taker's side than the heuristic does with 4 players, and the bot as
taker takes more than the heuristic, so the bid passed hands the heuristic makes. With 4
players, paired on 200 boards at 20 draws against no shift: 6 half-points +3.9 per board
(95 % +0.8 to +6.9, 39 boards changed), 12 half-points +5.4 (+0.8 to +10.1, 73 changed); with
3 players, 6 half-points +4.7 (-1.2 to +10.5, 100 boards, 25 changed; with the 4 players' 200
boards at 6, +4.1 pooled, +1.3 to +6.9). With 5 players, 6 half-points (the sixth session,
paired against the rules' bid: docs/search-bot.md). Two players bid by the rules."""
REPLIES_BY_PLAYERS: dict[int, bool | str] = {4: "taker"}
"""The heuristic's replies to each card tried (``replies``) by default, by the number of
players: with 4, in the taker's own card decisions (docs/search-bot.md, "Issue 28, seventh
session": paired on 500 boards at 20 draws, +2.85 per board, 95 % +0.17 to +5.53, all of it in
the taker's part); elsewhere none: paired at 20 draws (docs/search-bot.md, "Issue 28, ninth
session"), with 3 players +0.05 (-5.79 to +5.88, 100 boards), with 5 +1.84 (-3.13 to +6.82,
300 boards), for 1.3 to 1.7 times the CPU."""
BID_SAMPLES = 150
"""Draws for a bid by simulation (fewer when the deadline comes first), in either mode."""
BID_WINDOW: float | None = None
"""The bids simulated: every legal bid (None), or those within that many points of the hand's
count (:func:`~clients.search_bidding.bid_candidates`). A window of 15 cost the bid 0.4 to 1.4
points a board (3 and 4 players, 200 boards each) for 40 % fewer draws."""
DECISION_TRUST = 1.0
"""By default, a simulated decision overrules the rules' choice only when it is better by
that many standard errors over the draws (the rollouts' bias: see :mod:`clients.search_bidding`)."""
ROLLOUTS: dict[str, Policy | None] = {"quick": None, "rules": rules_card}
"""The bid's play-out policies by name (``bid_rollout``): the card search's quick rollout, or
:func:`~clients.search_rollout.rules_card` (the heuristic's habits)."""
Scorer = Callable[[int, Budget], list[list[int]]]
"""A simulated decision's draws, from its seed and budget (each candidate's score per draw)."""
POIGNEE_SHARE = 0.3
"""The share of a card decision's time the poignée question may take in time mode."""


class SearchBot(TimedSearch, HeuristicBot):
    """Determinized Monte Carlo card play over the heuristic's bidding; see the module docstring.

    ``samples``: draws per decision (reproducible); None to fill the request's time instead.
    ``max_samples`` caps the draws in time mode. ``clock`` is the time source (tests inject
    one). ``margin_share`` is the share of each time limit left unused for the transport.
    ``trust``: when set, the search overrules the heuristic's card only when its best card does
    better by that many standard errors over the draws (None: the best total always plays).
    ``solver_cards``: once no hand holds more cards than that at a decision, each draw is
    played out exactly (:func:`~clients.sdk.solve`) instead of by the rollout policy (0: never).
    ``simulate``: the decisions before the card play taken by simulation (among ``"bid"``,
    ``"call"``, ``"discard"``, ``"poignee"``), the others by the heuristic's rules;
    ``decision_trust`` the standard errors by which a simulation must beat the rules' choice;
    ``decision_samples`` their draws (default: ``samples``; in time mode, the request's time);
    ``taker_shift`` scores their play-outs with the rollouts' measured bias corrected
    (:data:`~clients.search_bidding.TAKER_SHIFT`).
    ``replies``: the rest of the trick after each card tried is played by the heuristic from
    each seat's own view of the draw (:mod:`clients.search_reply`), then the quick rollout;
    ``"taker"``: only in the taker's own card decisions; None (the default) takes
    :data:`REPLIES_BY_PLAYERS` at each table.
    ``bid_tries``: draws made for each one kept, to keep one that agrees with the bids
    (:mod:`clients.search_inference`; 1: the sampler's draws as they come).
    ``boldness``: points added to the heuristic's count of its hand before it bids
    (:func:`~clients.search_bidding.bolder_contract`).
    ``simulate`` None (the default) takes :data:`SIMULATED_BY_PLAYERS` at each table.
    ``bid_samples``: the draws of a bid by simulation; ``bid_window``: the bids it weighs
    (:data:`BID_WINDOW`); ``bid_rollout``: its play-outs' policy, ``"rules"`` (the heuristic's
    habits) or ``"quick"`` (the card search's rollout).
    ``rollout``: the card search's play-out policy, by the same names; ``decision_rollout``:
    that of the call, the discard and the poignée by simulation.
    ``play_weight``: each draw of the card search counts ``play_weight`` to the power of the
    number of the other seats' cards seen that the rollout policy, on that drawn deal, would not
    have played (1: every draw counts the same).
    ``merge``: the card search plays out one card of each class of equivalent cards
    (:func:`~clients.search_rollout.equivalent_classes`: they score the same on every draw) and
    gives its score to the others; always off with ``replies`` (the heuristic's replies read
    printed ranks). ``spend_saved``: with fixed draws, the rollouts merging saved buy more
    draws (``samples`` times the legal cards over the classes); in time mode they always do.
    ``bid_shift``: half-points given to the taker's side in the bid's play-outs (their rules
    rollouts take less than the heuristic does as taker, and the bot as taker takes more);
    None (the default) takes :data:`BID_SHIFT_BY_PLAYERS` at each table.
    ``bid_weight``: each draw of the card search counts ``bid_weight`` to the power of the
    number of other seats whose drawn hand is worth a contract outside what they bid
    (:func:`~clients.search_inference.disagreements`: the likelihood of the bids if each seat
    bids by the heuristic's count but for a slip of odds ``bid_weight``; 1: every draw the same).
    ``discard_samples``: the draws of a discard by simulation (None: ``decision_samples``, else
    ``samples``, else the request's time).
    ``bid_shift_others``: the half-points given to the taker's side in the bid's play-outs where
    another seat takes (None: as ``bid_shift``): that seat's play as taker is not the bot's.
    """

    name = "search"
    version = "1"
    threaded = True  # a decision takes its whole time: keep the connection's messages flowing
    games = ("french-tarot", TRE_E_VENTICINQUE)
    """Tre e Venticinque too: its requests go to :func:`clients.tre_search.tre_play`."""

    def __init__(
        self,
        samples: int | None = None,
        *,
        seed: int = 0,
        max_samples: int = 2000,
        margin_share: float = 0.15,
        clock: Callable[[], float] = time.perf_counter,
        trust: float | None = None,
        solver_cards: int = DEFAULT_SOLVER_CARDS,
        simulate: Sequence[str] | None = None,
        decision_trust: float = DECISION_TRUST,
        decision_samples: int | None = None,
        taker_shift: bool = False,
        replies: bool | str | None = None,
        boldness: float = 0.0,
        bid_tries: int = 1,
        bid_samples: int = BID_SAMPLES,
        bid_window: float | None = BID_WINDOW,
        bid_rollout: str = "rules",
        rollout: str = "quick",
        decision_rollout: str = "quick",
        play_weight: float = 1.0,
        merge: bool = True,
        spend_saved: bool = False,
        bid_shift: int | None = None,
        bid_weight: float = 1.0,
        discard_samples: int | None = None,
        bid_shift_others: int | None = None,
    ) -> None:
        if solver_cards < 0:
            raise ValueError(f"solver_cards must be at least 0, got {solver_cards}")
        if bid_tries < 1:
            raise ValueError(f"bid_tries must be at least 1, got {bid_tries}")
        if decision_samples is not None and decision_samples < 1:
            raise ValueError(f"decision_samples must be at least 1, got {decision_samples}")
        if not 0.0 < play_weight <= 1.0:
            raise ValueError(f"play_weight must be in (0, 1], got {play_weight}")
        if not 0.0 < bid_weight <= 1.0:
            raise ValueError(f"bid_weight must be in (0, 1], got {bid_weight}")
        if bid_samples < 1:
            raise ValueError(f"bid_samples must be at least 1, got {bid_samples}")
        if discard_samples is not None and discard_samples < 1:
            raise ValueError(f"discard_samples must be at least 1, got {discard_samples}")
        for knob, name in (("bid_rollout", bid_rollout), ("rollout", rollout),
                           ("decision_rollout", decision_rollout)):
            if name not in ROLLOUTS:
                raise ValueError(f"{knob} takes {', '.join(ROLLOUTS)}; got {name}")
        unknown = sorted(set(simulate or ()) - set(DECISIONS))
        if unknown:
            raise ValueError(f"simulate takes {', '.join(DECISIONS)}; got {', '.join(unknown)}")
        super().__init__(samples, seed=seed, max_samples=max_samples,
                         margin_share=margin_share, clock=clock)
        self.simulate = None if simulate is None else frozenset(simulate)
        """The decisions taken by simulation; None: :data:`SIMULATED_BY_PLAYERS`."""
        self.bid_samples = bid_samples
        self.bid_window = bid_window
        self.bid_rollout = bid_rollout
        self.rollout = rollout
        self.decision_rollout = decision_rollout
        self.play_weight = play_weight
        self.merge = merge
        self.spend_saved = spend_saved
        self.bid_weight = bid_weight
        """A card search's draw counts this to the power of the other seats whose drawn hand
        disagrees with their bids (:func:`~clients.search_inference.disagreements`)."""
        self.bid_shift = bid_shift
        """Half-points for the taker's side in the bid's play-outs; None:
        :data:`BID_SHIFT_BY_PLAYERS`."""
        self.bid_shift_others = bid_shift_others
        """The same when another seat takes in a play-out; None: :attr:`bid_shift`'s."""
        self.merged_rollouts = 0
        """Rollouts the merging of equivalent cards saved, over the bot's life."""
        self.weights: list[float] = []
        """The last card search's weight of each draw (:meth:`evaluate`), in its order, made in
        whichever thread searched last."""
        self._searched = threading.local()
        """This thread's last card search's weights (``last``): what :meth:`pick` weighs its
        draws with. The SDK runs each decision of a table in a thread of its own, and another
        table's search may start as soon as this one's turn ends, before it picks; a decision
        that waited past its deadline for its turn even searches (with no time, no draw) while
        another searches. Read from :attr:`weights`, a pick could take another table's weights,
        or fail on them (seen in ``make demo``: a ValueError from ``zip``, a timeout)."""
        self.decision_trust = decision_trust
        self.decision_samples = decision_samples
        self.discard_samples = discard_samples
        """The draws of a discard by simulation (None: as the other decisions'): the discard's
        play-outs are quick, so in time mode it makes several times a card's fixed draws."""
        self.taker_shift = taker_shift
        self.planned_discard: tuple[int, int, tuple[Card, ...]] | None = None
        """The discard chosen at the first card of it: (seat, the hand before it, its cards)."""
        self.decision_draws = 0
        """Draws played out for the decisions before the card play, over the bot's life."""
        self.trust = trust
        self.solver_cards = solver_cards
        if replies not in (None, False, True, 0, 1, "taker"):
            raise ValueError(f"replies takes 0, 1 or taker; got {replies!r}")
        self.replies = replies
        """The heuristic's replies to each card tried: never, always, or ``"taker"`` (only in
        the taker's own card decisions); None: :data:`REPLIES_BY_PLAYERS`."""
        self.boldness = boldness
        self.bid_tries = bid_tries
        self.tre = TimedSearch(samples, seed=seed, max_samples=max_samples,
                               margin_share=margin_share, clock=clock, turns=self.turns)
        """The search at Tre e Venticinque tables (:func:`clients.tre_search.tre_play`): the same
        knobs, its own clocks (a draw of that game costs differently)."""

    # ----------------------------------------------------------------------------- play
    def play(self, table: TableView, request: DecisionRequest) -> Any:
        if table.game.name == TRE_E_VENTICINQUE:
            return tre_play(self.tre, table, request)
        start = self.clock()
        legal = request.legal_actions
        poignees = [a for a in legal if isinstance(a, DeclarePoignee)]
        if poignees:
            shown = self.choose_poignee(table, request, poignees, start)
            if shown is not None:
                return shown
        cards = [a.card for a in legal if isinstance(a, Play)]
        deadline = self.deadline(table, request, start)
        if len(cards) == 1:
            COLLECTOR.spare(deadline)
            return Play(cards[0])
        with self.searching(deadline) as deadline:
            scores = self.evaluate(table, cards, deadline)
        best = self.pick(table, cards, scores)
        self.answered(deadline)
        return Play(best)

    # ------------------------------------------------------- before the card play
    def bid(self, table: TableView, request: DecisionRequest) -> Action:
        rules = self.bolder_bid(table, request) if self.boldness else super().bid(table, request)
        if not self.simulates("bid", table) or table.options.has_dummy:
            return rules
        legal = [a for a in request.legal_actions if isinstance(a, (Pass, Bid))]
        bids = bid_candidates(table.hand, table.options.players, legal, rules, self.bid_window)
        if len(bids) < 2:
            return rules
        start = self.clock()
        chosen = self.simulated(
            "bid", table, lambda seed, budget: bid_scores(table, seed, bids, budget),
            bids.index(rules), self.deadline(table, request, start))
        return bids[chosen]

    def simulates(self, kind: str, table: TableView) -> bool:
        """Whether the decision ``kind`` is taken by simulation at this table."""
        chosen = self.simulate
        if chosen is None:
            chosen = frozenset(SIMULATED_BY_PLAYERS.get(table.options.players, SIMULATED))
        return kind in chosen

    def bolder_bid(self, table: TableView, request: DecisionRequest) -> Action:
        """The heuristic's bid for a hand counted :attr:`boldness` points higher: the highest
        contract it is worth still open, else a pass."""
        wanted = bolder_contract(table.hand, table.options.players, self.boldness)
        bids = [a for a in request.legal_actions
                if isinstance(a, Bid) and wanted is not None and a.contract <= wanted]
        return max(bids, key=lambda a: a.contract) if bids else PASS

    def call(self, table: TableView, request: DecisionRequest) -> Action:
        rules = super().call(table, request)
        if not self.simulates("call", table):
            return rules
        calls = [a for a in request.legal_actions if isinstance(a, CallCard)]
        start = self.clock()
        chosen = self.simulated("call", table, self.scorer(table, [applying(a) for a in calls]),
                                calls.index(rules), self.deadline(table, request, start))
        return calls[chosen]

    def discard(self, table: TableView, request: DecisionRequest) -> Any:
        if table.game.name == TRE_E_VENTICINQUE:
            return tre_play(self.tre, table, request)
        if not self.simulates("discard", table) or table.options.has_dummy:
            return super().discard(table, request)
        legal = {a.card for a in request.legal_actions if isinstance(a, Discard)}
        before = sum(1 << c for c in (*table.hand, *table.discard))
        planned = self.planned_discard
        if planned is not None and planned[:2] == (table.seat, before):
            left = [c for c in planned[2] if c not in table.discard]
            if left and all(c in legal for c in left):
                return Discard(left[0])
        count = CHIEN_SIZES[table.options.players] - len(table.discard)
        candidates = discard_candidates(table.hand, legal, count, table.called_card)
        chosen = 0
        if len(candidates) > 1:
            start = self.clock()
            outcomes = [applying(*(Discard(c) for c in cards)) for cards in candidates]
            chosen = self.simulated("discard", table, self.scorer(table, outcomes), 0,
                                    self.deadline(table, request, start))
        self.planned_discard = (table.seat, before, candidates[chosen])
        return Discard(candidates[chosen][0])

    def choose_poignee(
        self, table: TableView, request: DecisionRequest, poignees: Sequence[DeclarePoignee],
        start: float,
    ) -> DeclarePoignee | None:
        """The poignée to show at the first card, if any: the rules' (the highest level when
        one's side is likely to win), or by simulation (not showing against each level)."""
        highest = max(poignees, key=lambda a: a.level)
        rules = highest if self.show_poignee(table) else None
        if not self.simulates("poignee", table) or table.options.has_dummy:
            return rules
        options: list[DeclarePoignee | None] = [None, *poignees]
        outcomes = [showing(table.seat, None if a is None else poignee_shown(table, a.level))
                    for a in options]
        deadline = self.deadline(table, request, start)
        deadline = start + (deadline - start) * POIGNEE_SHARE
        chosen = self.simulated("poignee", table, self.scorer(table, outcomes),
                                options.index(rules), deadline, settle=False)
        return options[chosen]

    @staticmethod
    def scorer(table: TableView, outcomes: Sequence[Outcome]) -> Scorer:
        """Each outcome played out on the draws
        (:func:`~clients.search_bidding.candidate_scores`)."""
        return lambda seed, budget: candidate_scores(table, seed, outcomes, budget)

    def simulated(
        self, kind: str, table: TableView, scorer: Scorer, prior: int,
        deadline: float | None, *, settle: bool = True,
    ) -> int:
        """The index of the candidate the simulation picks (``prior``: the rules' choice)."""
        bonus = 0
        others: int | None = None
        if kind == "bid":
            wanted = self.decision_samples or self.bid_samples
            policy = ROLLOUTS[self.bid_rollout]
            bonus = (self.bid_shift if self.bid_shift is not None
                     else BID_SHIFT_BY_PLAYERS.get(table.options.players, 0))
            others = self.bid_shift_others
        else:
            wanted = self.decision_samples or self.samples or self.max_samples
            if kind == "discard" and self.discard_samples is not None:
                wanted = self.discard_samples
            policy = ROLLOUTS[self.decision_rollout]
        seed = self.simulation_seed(kind, table)
        with self.searching(deadline) as deadline:
            budget = Budget(wanted, deadline, self.clock, self.taker_shift,
                            self.exact_limit(deadline), policy, bonus, others,
                            self.turns.until)
            draws = scorer(seed, budget)
        self.decision_draws += len(draws)
        if settle:
            self.answered(deadline)
        return choose(draws, prior, self.decision_trust)

    def on_notice(self, table: TableView | None, notice: Notice) -> None:
        """As :meth:`TimedSearch.on_notice`, for both games' time keeping."""
        super().on_notice(table, notice)
        self.tre.on_notice(table, notice)

    def pick(self, table: TableView, cards: Sequence[Card], scores: list[list[int]]) -> Card:
        """The card with the best total over the draws, each weighed as this thread's last
        search weighed it (:meth:`evaluate`); with ``trust`` set, the heuristic's card unless
        the best one beats it by ``trust`` standard errors on the same draws."""
        if not scores:  # no time left for a single draw: the heuristic's card
            return heuristic_card(table, cards)
        weights = getattr(self._searched, "last", None)
        if weights is None or len(weights) != len(scores):
            weights = [1.0] * len(scores)
        totals = [sum(w * draw[i] for w, draw in zip(weights, scores, strict=True))
                  for i in range(len(cards))]
        best = max(range(len(cards)), key=lambda i: (totals[i], -cards[i]))
        if self.trust is None:
            return cards[best]
        prior = cards.index(heuristic_card(table, cards))
        if prior == best or len(scores) < 2:
            return cards[prior]
        diffs = [draw[best] - draw[prior] for draw in scores]
        n = len(diffs)
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return cards[best] if mean > self.trust * math.sqrt(variance / n) else cards[prior]

    def evaluate(
        self, table: TableView, cards: Sequence[Card], deadline: float | None
    ) -> list[list[int]]:
        """This seat's score for each card (in the order of ``cards``), one list per draw: every
        card played out on the same draws. Empty when the deadline passed before a draw."""
        clock = self.clock
        seat = table.seat
        replies = self.replying(table)
        bid_weight = self.bid_weight
        ranges = (bid_ranges(table.bids, table.seat)
                  if self.bid_tries > 1 or bid_weight < 1.0 else [])
        tries = self.bid_tries
        policy = ROLLOUTS[self.rollout]
        model = policy or rollout_card
        miss = self.play_weight
        # The cards this bot chose tell nothing of the hidden hands: its own, and with two
        # players the dummy's (whose hand is shown when it plays).
        own = (seat, DUMMY) if table.options.has_dummy else (seat,)
        tried = self.card_classes(table, cards)
        answers = Replies() if replies else None  # one per decision: its tricks are the same
        weights: list[float] = []
        self.weights = self._searched.last = weights
        sampler = Sampler(table, seed=self.decision_seed(table),
                          exact_limit=self.exact_limit(deadline), deadline=deadline, clock=clock)

        def draw(deadline: float | None) -> list[int] | None:
            weight = 1.0
            try:
                sample = agreeing_sample(sampler, ranges, tries)
                if bid_weight < 1.0:
                    weight = bid_weight ** disagreements(sample, ranges)
                if miss < 1.0:
                    side = -1

                    def watch(state: GameState, player: int, card: Card) -> None:
                        nonlocal weight, side
                        if player in own:
                            return
                        if side < 0:
                            side = taker_side(state)
                        if model(state, side) != card:
                            weight *= miss

                    base = sample.state(watch)
                else:
                    base = sample.state()
            except DeadlinePassedError:
                return None
            exact = cards_left(base) <= self.solver_cards
            scores = []
            for card, _members in tried:
                if deadline is not None and clock() > deadline:
                    return None  # a stalled machine: drop this draw rather than answer late
                state = copy_state(base)
                play_unchecked(state, card)
                if answers is not None:
                    answers.to_trick(state, seat)
                if exact:
                    score = solve(state, first=rollout_card)[seat]
                else:
                    finish(state, policy)
                    assert state.result is not None
                    score = state.result.scores[seat]
                scores.append(score)
            weights.append(weight)
            return scores

        wanted = None
        if self.spend_saved and self.samples is not None and len(tried) < len(cards):
            wanted = min(self.max_samples, -(-self.samples * len(cards) // len(tried)))
        draws = self.run_draws(len(tried), draw, deadline, wanted)
        self.merged_rollouts += len(draws) * (len(cards) - len(tried))
        if len(tried) == len(cards):
            return draws
        # Back to one score per legal card, in the order of ``cards``: each its class's.
        where = self.class_index(cards, tried)
        return [[draw[i] for i in where] for draw in draws]

    def replying(self, table: TableView) -> bool:
        """Whether this card decision plays the heuristic's replies to each card tried
        (:attr:`replies`; with ``"taker"``, only when this seat is the taker: measured, the
        replies paid in the taker's play and not in defence, and they cost draws)."""
        replies = self.replies
        if replies is None:
            replies = REPLIES_BY_PLAYERS.get(table.options.players, False)
        if replies == "taker":
            return table.taker == table.seat
        return bool(replies)

    @staticmethod
    def class_index(cards: Sequence[Card], tried: Sequence[tuple[Card, int]]) -> list[int]:
        """For each of ``cards``, the index in ``tried`` of the class it belongs to (a class's
        members follow its card in ascending order)."""
        index: dict[Card, int] = {}
        ordered = sorted(cards)
        at = 0
        for number, (_card, members) in enumerate(tried):
            for card in ordered[at:at + members]:
                index[card] = number
            at += members
        return [index[card] for card in cards]

    def card_classes(self, table: TableView, cards: Sequence[Card]) -> list[tuple[Card, int]]:
        """The cards the search plays out, each with how many legal cards it stands for: one
        card (the lowest, which ties between equal totals favour) of each class of equivalent
        cards (:func:`~clients.search_rollout.equivalent_classes`), every card without
        :attr:`merge`. The cards that cannot change places are what is still to be played by
        others or lies in the current trick (that trick's cards are compared with the one
        played); the acting hand's own cards, the finished tricks' and this seat's own discard
        (never played) can."""
        if not self.merge or self.replying(table) or len(cards) < 2:
            return [(card, 1) for card in cards]
        acting = table.to_act
        hand = table.hand
        if table.options.has_dummy and acting is not None and acting != table.seat:
            hand = tuple(getattr(table.observation, "dummy", None) or cards)
        gone = 0
        for card in (*hand, *cards, *table.discard):
            gone |= 1 << card
        for trick in table.tricks:
            for card in trick.cards:
                gone |= 1 << card
        return [(members[0], len(members))
                for members in equivalent_classes(sorted(cards), gone)]

    def simulation_seed(self, kind: str, table: TableView) -> int:
        """The draws' seed for a decision before the card play (``kind`` among
        :data:`~clients.search_bidding.DECISIONS`): as :meth:`decision_seed`, one per kind."""
        key = f"{kind}|{self.decision_seed(table)}"
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")

    def decision_seed(self, table: TableView) -> int:
        """The same for the same seed, seat, dealt hand and cards played: never the table id."""
        key = f"{self.seed}|{table.seat}|{table.dealt_hand()}|{table.played_cards()}"
        return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")


def heuristic_card(table: TableView, cards: Sequence[Card]) -> Card:
    """The heuristic's card for the seat to act; with two players, as the heuristic plays them:
    the table seen as three hands, the dummy's when the defender plays it (``seat_view``)."""
    if not table.options.has_dummy:
        return choose_card(table, cards)
    seat = table.to_act
    assert seat is not None
    hand = table.hand if seat == table.seat else table.observation.dummy
    asked = DecisionRequest(table.table_id, seat, 0, table.phase, table.legal_actions, 0.0, 0.0,
                            hand, player=table.seat)
    view, shown = seat_view(table, asked)
    return choose_card(view, cards, shown)
