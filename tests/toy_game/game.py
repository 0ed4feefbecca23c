"""A toy trick-taking game that lives only in the tests: proof that the arena assumes nothing of
French Tarot outside its package.

Twelve cards, suits A B C D of ranks 1 2 3 (card ``suit * 3 + rank - 1``, named ``2B``), dealt
from the arena's seeded stream (:mod:`arena.games.dealing`) to 2, 3 or 4 players, the seat after
the dealer first. The seat after the dealer leads; everyone follows suit if they can; the highest
card of the suit led wins the trick and leads the next. Each trick is a point; a seat scores
``players * its tricks - all tricks`` (zero-sum). Its one setting, ``trumps``, makes suit D beat
the others (a seat that cannot follow may play anything either way).

Written only against :mod:`arena.games.base`: if the arena needed anything else of a game, this
module would have to know it, and the toy game's tournament test would fail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

from arena.games.base import IllegalActionError, Revealed, WireAction, WrongTurnError
from arena.games.dealing import DealStream, shuffled_pack
from arena.games.jsonform import JsonForm

from .display import ToyDisplay

SUITS: Final = "ABCD"
RANKS: Final = 3
DECK: Final = len(SUITS) * RANKS
FORMAT: Final = "tarot-arena/toy-record/1"


def card_name(card: int) -> str:
    if not 0 <= card < DECK:
        raise ValueError(f"card {card} does not exist: cards are 0..{DECK - 1}")
    return f"{card % RANKS + 1}{SUITS[card // RANKS]}"


def parse_card(text: str) -> int:
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in "123" or text[1] not in SUITS:
        raise ValueError(f"unknown card {text!r}: a rank 1-3 then a suit {SUITS}, e.g. 2B")
    return SUITS.index(text[1]) * RANKS + int(text[0]) - 1


def suit_of(card: int) -> int:
    return card // RANKS


class Phase(Enum):
    PLAYING = "playing"
    FINISHED = "finished"


class Outcome(Enum):
    PLAYED = "played"


@dataclass(frozen=True, slots=True)
class Options:
    players: int = 3
    trumps: bool = False

    def __post_init__(self) -> None:
        if self.players not in (2, 3, 4):
            raise ValueError(f"the toy game is played by 2, 3 or 4, not {self.players}")


@dataclass(frozen=True, slots=True)
class Play:
    card: int

    def __str__(self) -> str:
        return f"play {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Result:
    outcome: Outcome
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    index: int
    trick: Trick


@dataclass(frozen=True, slots=True)
class Observation:
    seat: int
    options: Options
    phase: Phase
    to_act: int | None
    hand: tuple[int, ...]
    tricks: tuple[Trick, ...]
    current_trick: tuple[tuple[int, int], ...]
    result: Result | None


class State:
    """A deal: mutable, changed only by :meth:`ToyGame.apply`."""

    def __init__(self, options: Options, dealer: int, hands: Sequence[Sequence[int]]) -> None:
        self.options = options
        self.dealer = dealer
        self.dealt = tuple(tuple(sorted(h)) for h in hands)
        self.hands = [list(h) for h in self.dealt]
        self.phase = Phase.PLAYING
        self.to_act: int | None = (dealer + 1) % options.players
        self.leader = self.to_act
        self.trick: list[int] = []
        self.tricks: list[Trick] = []
        self.history: list[tuple[int, Play]] = []
        self.result: Result | None = None

    @property
    def game(self) -> ToyGame:
        return TOY_GAME

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        return tuple(((self.leader + i) % self.players, c) for i, c in enumerate(self.trick))


def _beats(card: int, best: int, trumps: bool) -> bool:
    if suit_of(card) == suit_of(best):
        return card > best
    return trumps and suit_of(card) == len(SUITS) - 1


@dataclass(frozen=True, slots=True)
class Record:
    options: Options
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    actions: tuple[tuple[int, Play], ...]
    result: Result | None
    seed: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "options": TOY_GAME.options_to_json(self.options),
            "seed": self.seed,
            "dealer": self.dealer,
            "hands": [" ".join(card_name(c) for c in h) for h in self.hands],
            "actions": [[seat, str(action)] for seat, action in self.actions],
            "result": None if self.result is None else list(self.result.scores),
        }

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent)


_JSON: Final = JsonForm((Play,), str, lambda text: TOY_GAME.parse_action(text),
                        (CardPlayed, TrickWon))


class ToyGame:
    name: Final = "toy"
    title: Final = "Toy Tricks"
    deck_size: Final = DECK
    record_format: Final = FORMAT
    display: Final = ToyDisplay(card_name, State)

    def seat_counts(self) -> tuple[int, ...]:
        return (2, 3, 4)

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> Options:
        settings = dict(settings or {})
        trumps = settings.pop("trumps", False)
        if settings:
            raise ValueError(f"unknown toy setting {sorted(settings)[0]!r}: the one is trumps")
        if not isinstance(trumps, bool):
            raise ValueError(f"trumps must be true or false, not {trumps!r}")
        return Options(players, trumps)

    def options_to_json(self, options: Options) -> dict[str, Any]:
        return {"players": options.players, "trumps": options.trumps}

    def options_from_json(self, data: Mapping[str, Any]) -> Options:
        players = data.get("players")
        if isinstance(players, bool) or not isinstance(players, int):
            raise ValueError(f"players must be an integer, not {players!r}")
        return self.options(players, {k: v for k, v in data.items() if k != "players"})

    def players_of(self, options: Options) -> int:
        return options.players

    def dealer_of(self, options: Options, board: int) -> int:
        return board % options.players

    def new_deal(self, seed: int, options: Options, dealer: int = 0) -> State:
        pack = shuffled_pack(DealStream(seed), DECK)
        n = options.players
        size = DECK // n
        hands: list[list[int]] = [[] for _ in range(n)]
        for i in range(n):
            hands[(dealer + 1 + i) % n] = pack[i * size:(i + 1) * size]
        return State(options, dealer, hands)

    def decider(self, state: State) -> int | None:
        return state.to_act

    def legal_actions(self, state: State) -> tuple[Play, ...]:
        if state.to_act is None:
            return ()
        hand = state.hands[state.to_act]
        if state.trick:
            led = suit_of(state.trick[0])
            following = [c for c in hand if suit_of(c) == led]
            if following:
                return tuple(Play(c) for c in sorted(following))
        return tuple(Play(c) for c in sorted(hand))

    def apply(self, state: State, action: Any, seat: int | None = None) -> None:
        if state.to_act is None:
            raise IllegalActionError("the deal is over", action, seat)
        if seat is not None and seat != state.to_act:
            raise WrongTurnError(f"it is seat {state.to_act}'s turn, not seat {seat}'s",
                                 action, seat)
        if action not in self.legal_actions(state):
            raise IllegalActionError(self.explain_illegal(state, action), action, state.to_act)
        actor = state.to_act
        state.hands[actor].remove(action.card)
        state.history.append((actor, action))
        state.trick.append(action.card)
        n = state.players
        if len(state.trick) < n:
            state.to_act = (actor + 1) % n
            return
        best = 0
        for i, card in enumerate(state.trick):
            if _beats(card, state.trick[best], state.options.trumps):
                best = i
        winner = (state.leader + best) % n
        state.tricks.append(Trick(state.leader, tuple(state.trick), winner))
        state.trick = []
        state.leader = winner
        state.to_act = winner
        if not state.hands[winner]:
            won = [sum(1 for t in state.tricks if t.winner == s) for s in range(n)]
            total = len(state.tricks)
            state.result = Result(Outcome.PLAYED, tuple(n * w - total for w in won))
            state.phase = Phase.FINISHED
            state.to_act = None

    def explain_illegal(self, state: State, action: Any) -> str:
        if not isinstance(action, Play):
            return f"{action!r} is not a toy action: only play CARD"
        if state.to_act is None or action.card not in state.hands[state.to_act]:
            return f"{card_name(action.card)} is not in the hand"
        return f"{card_name(action.card)} does not follow suit"

    def fallback_action(self, state: State) -> Play:
        return self.legal_actions(state)[0]

    def decision_kind(self, state: State) -> str:
        return "play"

    def decision_phase(self, kind: str) -> Phase:
        if kind != "play":
            raise ValueError(f"the toy game has no {kind!r} decision")
        return Phase.PLAYING

    def hand(self, state: State, seat: int) -> tuple[int, ...]:
        return tuple(sorted(state.hands[seat]))

    def result(self, state: State) -> Result | None:
        return state.result

    def revealed(self, state: State) -> Revealed:
        return Revealed(state.dealt, (), ())

    def observe(self, state: State, seat: int) -> Observation:
        return Observation(
            seat, state.options, state.phase, state.to_act, self.hand(state, seat),
            tuple(state.tricks), state.current_trick, state.result,
        )

    def sealed_observation(self, state: State, seat: int) -> Observation:
        return self.observe(state, seat)

    def sealed_result(self, result: Result) -> Result:
        return result

    def bare_result(self, outcome: str, scores: Sequence[int]) -> Result:
        return Result(Outcome(outcome), tuple(scores))

    def event_mark(self, state: State) -> int:
        return len(state.tricks)

    def events_after(
        self, state: State, actor: int, action: Any, before: int
    ) -> list[tuple[int | None, Any]]:
        out: list[tuple[int | None, Any]] = [(None, CardPlayed(actor, action.card))]
        if len(state.tricks) > before:
            out.append((None, TrickWon(before, state.tricks[-1])))
        return out

    def observation_after(self, observation: Observation, event: Any) -> Observation:
        n = observation.options.players
        if isinstance(event, CardPlayed):
            hand = observation.hand
            if event.seat == observation.seat:
                hand = tuple(c for c in hand if c != event.card)
            return replace(observation, hand=hand, to_act=(event.seat + 1) % n,
                           current_trick=(*observation.current_trick, (event.seat, event.card)))
        if isinstance(event, TrickWon):
            tricks = (*observation.tricks, event.trick)
            over = len(tricks) * n == DECK - DECK % n
            result = None
            if over:
                won = [sum(1 for t in tricks if t.winner == s) for s in range(n)]
                result = Result(Outcome.PLAYED, tuple(n * w - len(tricks) for w in won))
            return replace(
                observation, tricks=tricks, current_trick=(),
                to_act=None if over else event.trick.winner,
                phase=Phase.FINISHED if over else Phase.PLAYING, result=result,
            )
        raise TypeError(f"{event!r} is not a toy event")

    def observation_asked(
        self, observation: Observation, phase: Enum, legal: tuple[Any, ...],
        hand: tuple[int, ...], seat: int,
    ) -> Observation:
        return replace(observation, to_act=seat, hand=tuple(sorted(hand)))

    def observation_at_end(
        self, observation: Observation, result: Any, cards: Revealed | None = None
    ) -> Observation:
        return replace(observation, phase=Phase.FINISHED, to_act=None, result=result)

    def observation_to_json(self, observation: Observation) -> dict[str, Any]:
        return _JSON.object_to_json(observation)

    def observation_from_json(self, data: Any) -> Observation:
        return _JSON.decode(Observation, data)

    def event_to_json(self, event: Any) -> tuple[str, dict[str, Any]]:
        return _JSON.event_to_json(event)

    def event_from_json(self, kind: str, data: Any) -> Any:
        return _JSON.event_from_json(kind, data)

    def card_name(self, card: int) -> str:
        return card_name(card)

    def parse_card(self, text: str) -> int:
        return parse_card(text)

    def format_action(self, action: Any) -> str:
        return str(action)

    def parse_action(self, text: str) -> Play:
        words = text.split()
        if len(words) != 2 or words[0].lower() != "play":
            raise ValueError(f"unknown action {text!r}: the toy game's one action is play CARD")
        return Play(parse_card(words[1]))

    def action_to_wire(self, action: Any) -> WireAction:
        if not isinstance(action, Play):
            raise TypeError(f"{action!r} is not a toy action")
        return WireAction("play", action.card)

    def action_from_wire(self, wire: WireAction) -> Play:
        if wire.kind == "notation":
            return self.parse_action(wire.text)
        if wire.kind != "play":
            raise ValueError(f"the toy game has no {wire.kind!r} action")
        if not 0 <= wire.argument < DECK:
            raise ValueError(f"card {wire.argument} does not exist: cards are 0..{DECK - 1}")
        return Play(wire.argument)

    def record(self, state: State, seed: int | None = None) -> Record:
        return Record(state.options, state.dealer, state.dealt, tuple(state.history),
                      state.result, seed)

    def load_record(self, data: Mapping[str, Any]) -> Record:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a toy record: format {data.get('format')!r}")
        try:
            options = self.options_from_json(data["options"])
            hands = tuple(tuple(parse_card(c) for c in h.split()) for h in data["hands"])
            actions = tuple((int(s), self.parse_action(a)) for s, a in data["actions"])
            scores = data["result"]
            result = None if scores is None else Result(Outcome.PLAYED, tuple(scores))
            return Record(options, int(data["dealer"]), hands, actions, result, data.get("seed"))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed toy record: {exc}") from None

    def replay(self, record: Record, check_result: bool = True) -> State:
        state = State(record.options, record.dealer, record.hands)
        for index, (seat, action) in enumerate(record.actions):
            try:
                self.apply(state, action, seat)
            except IllegalActionError as exc:
                raise ValueError(f"action {index} is illegal: {exc.reason}") from None
        if check_result and record.result is not None and record.result != state.result:
            raise ValueError(f"the recorded result {record.result} differs from {state.result}")
        return state


TOY_GAME: Final = ToyGame()
