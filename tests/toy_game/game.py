"""A toy trick-taking game that lives only in the tests: proof that the arena assumes nothing of
French Tarot outside its package.

Twelve cards, suits A B C D of ranks 1 2 3 (card ``suit * 3 + rank - 1``, named ``2B``), dealt
from the arena's seeded stream (:mod:`arena.games.dealing`) to 2, 3 or 4 players, the seat after
the dealer first. The seat after the dealer leads; everyone follows suit if they can; the highest
card of the suit led wins the trick and leads the next. Each trick is a point; a seat scores
``players * its tricks - all tricks`` (zero-sum). Its one setting, ``trumps``, makes suit D beat
the others (a seat that cannot follow may play anything either way).

Written against :mod:`arena.games.base` and built with :mod:`arena.games.kit`, as a game from
outside the arena's package is: its rules are the functions below and its declaration, and the
kit makes the rest of the interface of them. If the arena needed anything else of a game, this
module would have to know it, and the toy game's tournament test would fail.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from arena.games.base import (
    Game,
    IllegalActionError,
    Revealed,
    ScoreSum,
    ScoreUnit,
    Setting,
    WrongTurnError,
)
from arena.games.dealing import DealStream, shuffled_pack
from arena.games.jsonform import JsonForm
from arena.games.kit import CardGame, Engine, RecordKind, WireTable, by_card, card_table, declare

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
            "options": options_to_json(self.options),
            "seed": self.seed,
            "dealer": self.dealer,
            "hands": [" ".join(card_name(c) for c in h) for h in self.hands],
            "actions": [[seat, str(action)] for seat, action in self.actions],
            "result": None if self.result is None else list(self.result.scores),
        }

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.to_json(), indent=indent)


def options_to_json(options: Options) -> dict[str, Any]:
    return {"players": options.players, "trumps": options.trumps}


def new_deal(seed: int, options: Options, dealer: int = 0) -> State:
    pack = shuffled_pack(DealStream(seed), DECK)
    n = options.players
    size = DECK // n
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(n):
        hands[(dealer + 1 + i) % n] = pack[i * size:(i + 1) * size]
    return State(options, dealer, hands)


def legal_actions(state: State) -> tuple[Play, ...]:
    if state.to_act is None:
        return ()
    hand = state.hands[state.to_act]
    if state.trick:
        led = suit_of(state.trick[0])
        following = [c for c in hand if suit_of(c) == led]
        if following:
            return tuple(PLAYS[c] for c in sorted(following))
    return tuple(PLAYS[c] for c in sorted(hand))


def apply(state: State, action: Any, seat: int | None = None) -> None:
    if state.to_act is None:
        raise IllegalActionError("the deal is over", action, seat)
    if seat is not None and seat != state.to_act:
        raise WrongTurnError(f"it is seat {state.to_act}'s turn, not seat {seat}'s",
                             action, seat)
    if action not in legal_actions(state):
        raise IllegalActionError(explain_illegal(state, action), action, state.to_act)
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


def explain_illegal(state: State, action: Any) -> str:
    if not isinstance(action, Play):
        return f"{action!r} is not a toy action: only play CARD"
    if state.to_act is None or action.card not in state.hands[state.to_act]:
        return f"{card_name(action.card)} is not in the hand"
    return f"{card_name(action.card)} does not follow suit"


def observe(state: State, seat: int) -> Observation:
    return Observation(
        seat, state.options, state.phase, state.to_act, tuple(sorted(state.hands[seat])),
        tuple(state.tricks), state.current_trick, state.result,
    )


def event_mark(state: State) -> int:
    return len(state.tricks)


def events_after(
    state: State, actor: int, action: Any, before: int
) -> list[tuple[int | None, Any]]:
    out: list[tuple[int | None, Any]] = [(None, CardPlayed(actor, action.card))]
    if len(state.tricks) > before:
        out.append((None, TrickWon(before, state.tricks[-1])))
    return out


def observation_after(observation: Observation, event: Any) -> Observation:
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


def format_action(action: Any) -> str:
    return str(action)


def parse_action(text: str) -> Play:
    words = text.split()
    if len(words) != 2 or words[0].lower() != "play":
        raise ValueError(f"unknown action {text!r}: the toy game's one action is play CARD")
    return Play(parse_card(words[1]))


def record_of(state: State, seed: int | None = None) -> Record:
    return Record(state.options, state.dealer, state.dealt, tuple(state.history),
                  state.result, seed)


def load_record(data: Any) -> Record:
    if not isinstance(data, Mapping):
        raise ValueError(f"a toy record is a JSON object, not {data!r}")
    if data.get("format") != FORMAT:
        raise ValueError(f"not a toy record: format {data.get('format')!r}")
    try:
        options = TOY_GAME.options_from_json(data["options"])
        hands = tuple(tuple(parse_card(c) for c in h.split()) for h in data["hands"])
        actions = tuple((int(s), parse_action(a)) for s, a in data["actions"])
        scores = data["result"]
        result = None if scores is None else Result(Outcome.PLAYED, tuple(scores))
        return Record(options, int(data["dealer"]), hands, actions, result, data.get("seed"))
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"malformed toy record: {exc}") from None


def replay(record: Record, check_result: bool = True) -> State:
    state = State(record.options, record.dealer, record.hands)
    for index, (seat, action) in enumerate(record.actions):
        try:
            apply(state, action, seat)
        except IllegalActionError as exc:
            raise ValueError(f"action {index} is illegal: {exc.reason}") from None
    if check_result and record.result is not None and record.result != state.result:
        raise ValueError(f"the recorded result {record.result} differs from {state.result}")
    return state


PLAYS: Final = tuple(Play(card) for card in range(DECK))
_EVENTS: Final = (CardPlayed, TrickWon)

DECLARATION: Final = declare(
    name="toy",
    title="Toy Tricks",
    seat_counts=(2, 3, 4),
    deck_size=DECK,
    card_name=card_name,
    phases=Phase,
    decisions={"play": Phase.PLAYING},
    score=ScoreUnit("tricks"),
    sums=ScoreSum.ZERO,
    record_format=FORMAT,
    events=_EVENTS,
    observation=Observation,
    settings=(Setting("trumps", False, (False, True), "suit D beats the others"),),
    notation="Cards: rank 1-3 then suit A-D (2B). Actions: play 2B.",
)


class ToyGame(CardGame[State, Play, Any, Observation, Options, Result]):
    display: Final = ToyDisplay(card_name, State)

    def __init__(self) -> None:
        super().__init__(
            DECLARATION, State,
            Engine(
                new_deal=new_deal, legal_actions=legal_actions, apply=apply,
                explain_illegal=explain_illegal, event_mark=event_mark,
                events_after=events_after, observe=observe, sealed_observation=observe,
                observation_after=observation_after, format_action=format_action,
                parse_action=parse_action, card_name=card_name, parse_card=parse_card,
            ),
            RecordKind(record_of, load_record, replay),
            JsonForm((Play,), format_action, parse_action, _EVENTS),
            WireTable(encode={Play: by_card("play")},
                      decode={"play": card_table("play", PLAYS, DECK)}),
            Phase, Result, Outcome, Observation,
        )

    def options(self, players: int, settings: Mapping[str, Any] | None = None) -> Options:
        settings = dict(settings or {})
        trumps = settings.pop("trumps", False)
        if settings:
            raise ValueError(f"unknown toy setting {sorted(settings)[0]!r}: the one is trumps")
        if not isinstance(trumps, bool):
            raise ValueError(f"trumps must be true or false, not {trumps!r}")
        return Options(players, trumps)

    def options_to_json(self, options: Options) -> dict[str, Any]:
        return options_to_json(options)

    def hand(self, state: State, seat: int) -> tuple[int, ...]:
        return tuple(sorted(state.hands[seat]))

    def revealed(self, state: State) -> Revealed:
        return Revealed(state.dealt, (), ())

    def observation_asked(
        self, observation: Observation, phase: Enum, legal: tuple[Any, ...],
        hand: tuple[int, ...], seat: int,
    ) -> Observation:
        return replace(observation, to_act=seat, hand=tuple(sorted(hand)))

    def observation_at_end(
        self, observation: Observation, result: Any, cards: Revealed | None = None
    ) -> Observation:
        return replace(observation, phase=Phase.FINISHED, to_act=None, result=result)


TOY_GAME: Final = ToyGame()

if TYPE_CHECKING:
    _IS_A_GAME: Game[State, Play, Any, Observation, Options, Result] = TOY_GAME
