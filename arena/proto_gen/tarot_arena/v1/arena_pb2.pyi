from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    COUNTER_CLOCKWISE: _ClassVar[Direction]
    CLOCKWISE: _ClassVar[Direction]

class Contract(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTRACT_UNSPECIFIED: _ClassVar[Contract]
    PETITE: _ClassVar[Contract]
    GARDE: _ClassVar[Contract]
    GARDE_SANS: _ClassVar[Contract]
    GARDE_CONTRE: _ClassVar[Contract]

class PoigneeLevel(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    POIGNEE_UNSPECIFIED: _ClassVar[PoigneeLevel]
    SIMPLE: _ClassVar[PoigneeLevel]
    DOUBLE: _ClassVar[PoigneeLevel]
    TRIPLE: _ClassVar[PoigneeLevel]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    BIDDING: _ClassVar[Phase]
    CALLING: _ClassVar[Phase]
    DISCARDING: _ClassVar[Phase]
    CHELEM: _ClassVar[Phase]
    PLAYING: _ClassVar[Phase]
    FINISHED: _ClassVar[Phase]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_UNSPECIFIED: _ClassVar[DecisionKind]
    DECIDE_BID: _ClassVar[DecisionKind]
    DECIDE_CALL: _ClassVar[DecisionKind]
    DECIDE_DISCARD: _ClassVar[DecisionKind]
    DECIDE_CHELEM: _ClassVar[DecisionKind]
    DECIDE_PLAY: _ClassVar[DecisionKind]
    DECIDE_POIGNEE: _ClassVar[DecisionKind]

class InfractionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    INFRACTION_UNSPECIFIED: _ClassVar[InfractionKind]
    TIMEOUT: _ClassVar[InfractionKind]
    ILLEGAL_ACTION: _ClassVar[InfractionKind]
    MALFORMED_ACTION: _ClassVar[InfractionKind]
    DISCONNECTED: _ClassVar[InfractionKind]
    LATE_ANSWER: _ClassVar[InfractionKind]
    UNKNOWN_REQUEST: _ClassVar[InfractionKind]

class DealOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTCOME_UNSPECIFIED: _ClassVar[DealOutcome]
    PLAYED: _ClassVar[DealOutcome]
    ALL_PASSED: _ClassVar[DealOutcome]
    PETIT_SEC: _ClassVar[DealOutcome]
DIRECTION_UNSPECIFIED: Direction
COUNTER_CLOCKWISE: Direction
CLOCKWISE: Direction
CONTRACT_UNSPECIFIED: Contract
PETITE: Contract
GARDE: Contract
GARDE_SANS: Contract
GARDE_CONTRE: Contract
POIGNEE_UNSPECIFIED: PoigneeLevel
SIMPLE: PoigneeLevel
DOUBLE: PoigneeLevel
TRIPLE: PoigneeLevel
PHASE_UNSPECIFIED: Phase
BIDDING: Phase
CALLING: Phase
DISCARDING: Phase
CHELEM: Phase
PLAYING: Phase
FINISHED: Phase
DECISION_UNSPECIFIED: DecisionKind
DECIDE_BID: DecisionKind
DECIDE_CALL: DecisionKind
DECIDE_DISCARD: DecisionKind
DECIDE_CHELEM: DecisionKind
DECIDE_PLAY: DecisionKind
DECIDE_POIGNEE: DecisionKind
INFRACTION_UNSPECIFIED: InfractionKind
TIMEOUT: InfractionKind
ILLEGAL_ACTION: InfractionKind
MALFORMED_ACTION: InfractionKind
DISCONNECTED: InfractionKind
LATE_ANSWER: InfractionKind
UNKNOWN_REQUEST: InfractionKind
OUTCOME_UNSPECIFIED: DealOutcome
PLAYED: DealOutcome
ALL_PASSED: DealOutcome
PETIT_SEC: DealOutcome

class BotMessage(_message.Message):
    __slots__ = ("hello", "decision", "decisions")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    decision: Decision
    decisions: DecisionBatch
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., decision: _Optional[_Union[Decision, _Mapping]] = ..., decisions: _Optional[_Union[DecisionBatch, _Mapping]] = ...) -> None: ...

class ArenaMessage(_message.Message):
    __slots__ = ("welcome", "table_start", "event", "request", "notice", "table_end", "batch", "goodbye")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    TABLE_START_FIELD_NUMBER: _ClassVar[int]
    EVENT_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    NOTICE_FIELD_NUMBER: _ClassVar[int]
    TABLE_END_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    GOODBYE_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    table_start: TableStart
    event: TableEvent
    request: DecisionRequest
    notice: Notice
    table_end: TableEnd
    batch: MessageBatch
    goodbye: Goodbye
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., table_start: _Optional[_Union[TableStart, _Mapping]] = ..., event: _Optional[_Union[TableEvent, _Mapping]] = ..., request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., notice: _Optional[_Union[Notice, _Mapping]] = ..., table_end: _Optional[_Union[TableEnd, _Mapping]] = ..., batch: _Optional[_Union[MessageBatch, _Mapping]] = ..., goodbye: _Optional[_Union[Goodbye, _Mapping]] = ...) -> None: ...

class Goodbye(_message.Message):
    __slots__ = ("reason", "message")
    class Reason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
        __slots__ = ()
        REASON_UNSPECIFIED: _ClassVar[Goodbye.Reason]
        NO_MORE_WORK: _ClassVar[Goodbye.Reason]
        ARENA_STOPPING: _ClassVar[Goodbye.Reason]
    REASON_UNSPECIFIED: Goodbye.Reason
    NO_MORE_WORK: Goodbye.Reason
    ARENA_STOPPING: Goodbye.Reason
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    reason: Goodbye.Reason
    message: str
    def __init__(self, reason: _Optional[_Union[Goodbye.Reason, str]] = ..., message: _Optional[str] = ...) -> None: ...

class MessageBatch(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[ArenaMessage]
    def __init__(self, messages: _Optional[_Iterable[_Union[ArenaMessage, _Mapping]]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version", "max_tables", "batching", "games")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLES_FIELD_NUMBER: _ClassVar[int]
    BATCHING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    max_tables: int
    batching: bool
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., max_tables: _Optional[int] = ..., batching: _Optional[bool] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("bot_id", "protocol_version", "max_tables", "max_message_bytes", "batching", "games", "offered")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLES_FIELD_NUMBER: _ClassVar[int]
    MAX_MESSAGE_BYTES_FIELD_NUMBER: _ClassVar[int]
    BATCHING_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    OFFERED_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    protocol_version: int
    max_tables: int
    max_message_bytes: int
    batching: bool
    games: _containers.RepeatedScalarFieldContainer[str]
    offered: _containers.RepeatedCompositeFieldContainer[GameOffer]
    def __init__(self, bot_id: _Optional[str] = ..., protocol_version: _Optional[int] = ..., max_tables: _Optional[int] = ..., max_message_bytes: _Optional[int] = ..., batching: _Optional[bool] = ..., games: _Optional[_Iterable[str]] = ..., offered: _Optional[_Iterable[_Union[GameOffer, _Mapping]]] = ...) -> None: ...

class GameOffer(_message.Message):
    __slots__ = ("name", "title", "players", "settings_json", "score_unit", "score_per_point", "decisions")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    SCORE_UNIT_FIELD_NUMBER: _ClassVar[int]
    SCORE_PER_POINT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    players: _containers.RepeatedScalarFieldContainer[int]
    settings_json: str
    score_unit: str
    score_per_point: int
    decisions: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., players: _Optional[_Iterable[int]] = ..., settings_json: _Optional[str] = ..., score_unit: _Optional[str] = ..., score_per_point: _Optional[int] = ..., decisions: _Optional[_Iterable[str]] = ...) -> None: ...

class TableOptions(_message.Message):
    __slots__ = ("players", "beginner", "direction", "game", "settings_json")
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BEGINNER_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SETTINGS_JSON_FIELD_NUMBER: _ClassVar[int]
    players: int
    beginner: bool
    direction: Direction
    game: str
    settings_json: str
    def __init__(self, players: _Optional[int] = ..., beginner: _Optional[bool] = ..., direction: _Optional[_Union[Direction, str]] = ..., game: _Optional[str] = ..., settings_json: _Optional[str] = ...) -> None: ...

class GameInfo(_message.Message):
    __slots__ = ("name", "title", "cards")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    name: str
    title: str
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., title: _Optional[str] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class Empty(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Action(_message.Message):
    __slots__ = ("bid", "call", "discard", "chelem", "poignee", "play", "notation", "hide")
    PASS_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    CALL_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    CHELEM_FIELD_NUMBER: _ClassVar[int]
    POIGNEE_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    NOTATION_FIELD_NUMBER: _ClassVar[int]
    HIDE_FIELD_NUMBER: _ClassVar[int]
    bid: Contract
    call: int
    discard: int
    chelem: bool
    poignee: PoigneeLevel
    play: int
    notation: str
    hide: int
    def __init__(self, bid: _Optional[_Union[Contract, str]] = ..., call: _Optional[int] = ..., discard: _Optional[int] = ..., chelem: _Optional[bool] = ..., poignee: _Optional[_Union[PoigneeLevel, str]] = ..., play: _Optional[int] = ..., notation: _Optional[str] = ..., hide: _Optional[int] = ..., **kwargs) -> None: ...

class Trick(_message.Message):
    __slots__ = ("leader", "cards", "winner", "index")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedScalarFieldContainer[int]
    winner: int
    index: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[int]] = ..., winner: _Optional[int] = ..., index: _Optional[int] = ...) -> None: ...

class SeatAction(_message.Message):
    __slots__ = ("seat", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action: Action
    def __init__(self, seat: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class ShownPoignee(_message.Message):
    __slots__ = ("seat", "level", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    level: PoigneeLevel
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., level: _Optional[_Union[PoigneeLevel, str]] = ..., cards: _Optional[_Iterable[int]] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("phase", "hand", "bids", "has_contract", "contract", "taker", "has_called_card", "called_card", "partner_revealed", "partner", "chien", "discard", "discarded_trumps", "chelem_announced", "poignees", "tricks", "current_trick", "to_act", "has_to_act", "details_json", "dummy")
    PHASE_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    HAS_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TAKER_FIELD_NUMBER: _ClassVar[int]
    HAS_CALLED_CARD_FIELD_NUMBER: _ClassVar[int]
    CALLED_CARD_FIELD_NUMBER: _ClassVar[int]
    PARTNER_REVEALED_FIELD_NUMBER: _ClassVar[int]
    PARTNER_FIELD_NUMBER: _ClassVar[int]
    CHIEN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    DISCARDED_TRUMPS_FIELD_NUMBER: _ClassVar[int]
    CHELEM_ANNOUNCED_FIELD_NUMBER: _ClassVar[int]
    POIGNEES_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TRICK_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAS_TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DETAILS_JSON_FIELD_NUMBER: _ClassVar[int]
    DUMMY_FIELD_NUMBER: _ClassVar[int]
    phase: Phase
    hand: _containers.RepeatedScalarFieldContainer[int]
    bids: _containers.RepeatedCompositeFieldContainer[SeatAction]
    has_contract: bool
    contract: Contract
    taker: int
    has_called_card: bool
    called_card: int
    partner_revealed: bool
    partner: int
    chien: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    discarded_trumps: _containers.RepeatedScalarFieldContainer[int]
    chelem_announced: bool
    poignees: _containers.RepeatedCompositeFieldContainer[ShownPoignee]
    tricks: _containers.RepeatedCompositeFieldContainer[Trick]
    current_trick: Trick
    to_act: int
    has_to_act: bool
    details_json: str
    dummy: CardList
    def __init__(self, phase: _Optional[_Union[Phase, str]] = ..., hand: _Optional[_Iterable[int]] = ..., bids: _Optional[_Iterable[_Union[SeatAction, _Mapping]]] = ..., has_contract: _Optional[bool] = ..., contract: _Optional[_Union[Contract, str]] = ..., taker: _Optional[int] = ..., has_called_card: _Optional[bool] = ..., called_card: _Optional[int] = ..., partner_revealed: _Optional[bool] = ..., partner: _Optional[int] = ..., chien: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., discarded_trumps: _Optional[_Iterable[int]] = ..., chelem_announced: _Optional[bool] = ..., poignees: _Optional[_Iterable[_Union[ShownPoignee, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[Trick, _Mapping]]] = ..., current_trick: _Optional[_Union[Trick, _Mapping]] = ..., to_act: _Optional[int] = ..., has_to_act: _Optional[bool] = ..., details_json: _Optional[str] = ..., dummy: _Optional[_Union[CardList, _Mapping]] = ...) -> None: ...

class Player(_message.Message):
    __slots__ = ("seat", "bot_id", "bot_name")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_id: str
    bot_name: str
    def __init__(self, seat: _Optional[int] = ..., bot_id: _Optional[str] = ..., bot_name: _Optional[str] = ...) -> None: ...

class TableStart(_message.Message):
    __slots__ = ("table_id", "seat", "options", "dealer", "players", "view", "resumed", "next_sequence", "game")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    RESUMED_FIELD_NUMBER: _ClassVar[int]
    NEXT_SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    seat: int
    options: TableOptions
    dealer: int
    players: _containers.RepeatedCompositeFieldContainer[Player]
    view: SeatView
    resumed: bool
    next_sequence: int
    game: GameInfo
    def __init__(self, table_id: _Optional[str] = ..., seat: _Optional[int] = ..., options: _Optional[_Union[TableOptions, _Mapping]] = ..., dealer: _Optional[int] = ..., players: _Optional[_Iterable[_Union[Player, _Mapping]]] = ..., view: _Optional[_Union[SeatView, _Mapping]] = ..., resumed: _Optional[bool] = ..., next_sequence: _Optional[int] = ..., game: _Optional[_Union[GameInfo, _Mapping]] = ...) -> None: ...

class TableEvent(_message.Message):
    __slots__ = ("table_id", "sequence", "seat", "bid", "card_called", "chien_shown", "card_discarded", "trump_discarded", "chelem", "poignee", "card_played", "trick_won", "partner_revealed", "game_event", "dummy_shown")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    SEQUENCE_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    CARD_CALLED_FIELD_NUMBER: _ClassVar[int]
    CHIEN_SHOWN_FIELD_NUMBER: _ClassVar[int]
    CARD_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    CHELEM_FIELD_NUMBER: _ClassVar[int]
    POIGNEE_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WON_FIELD_NUMBER: _ClassVar[int]
    PARTNER_REVEALED_FIELD_NUMBER: _ClassVar[int]
    GAME_EVENT_FIELD_NUMBER: _ClassVar[int]
    DUMMY_SHOWN_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    sequence: int
    seat: int
    bid: SeatAction
    card_called: int
    chien_shown: CardList
    card_discarded: int
    trump_discarded: int
    chelem: SeatAction
    poignee: ShownPoignee
    card_played: SeatAction
    trick_won: Trick
    partner_revealed: int
    game_event: GameEvent
    dummy_shown: CardList
    def __init__(self, table_id: _Optional[str] = ..., sequence: _Optional[int] = ..., seat: _Optional[int] = ..., bid: _Optional[_Union[SeatAction, _Mapping]] = ..., card_called: _Optional[int] = ..., chien_shown: _Optional[_Union[CardList, _Mapping]] = ..., card_discarded: _Optional[int] = ..., trump_discarded: _Optional[int] = ..., chelem: _Optional[_Union[SeatAction, _Mapping]] = ..., poignee: _Optional[_Union[ShownPoignee, _Mapping]] = ..., card_played: _Optional[_Union[SeatAction, _Mapping]] = ..., trick_won: _Optional[_Union[Trick, _Mapping]] = ..., partner_revealed: _Optional[int] = ..., game_event: _Optional[_Union[GameEvent, _Mapping]] = ..., dummy_shown: _Optional[_Union[CardList, _Mapping]] = ...) -> None: ...

class GameEvent(_message.Message):
    __slots__ = ("kind", "json")
    KIND_FIELD_NUMBER: _ClassVar[int]
    JSON_FIELD_NUMBER: _ClassVar[int]
    kind: str
    json: str
    def __init__(self, kind: _Optional[str] = ..., json: _Optional[str] = ...) -> None: ...

class CardList(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, cards: _Optional[_Iterable[int]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("table_id", "request_id", "kind", "legal_actions", "time_limit_ms", "time_bank_ms", "hand", "seat", "player", "previous_request_id", "previous_elapsed_us")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    TIME_LIMIT_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_ELAPSED_US_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    request_id: int
    kind: DecisionKind
    legal_actions: _containers.RepeatedCompositeFieldContainer[Action]
    time_limit_ms: int
    time_bank_ms: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    seat: int
    player: int
    previous_request_id: int
    previous_elapsed_us: int
    def __init__(self, table_id: _Optional[str] = ..., request_id: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., legal_actions: _Optional[_Iterable[_Union[Action, _Mapping]]] = ..., time_limit_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., seat: _Optional[int] = ..., player: _Optional[int] = ..., previous_request_id: _Optional[int] = ..., previous_elapsed_us: _Optional[int] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("table_id", "request_id", "action")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    request_id: int
    action: Action
    def __init__(self, table_id: _Optional[str] = ..., request_id: _Optional[int] = ..., action: _Optional[_Union[Action, _Mapping]] = ...) -> None: ...

class DecisionBatch(_message.Message):
    __slots__ = ("decisions",)
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    decisions: _containers.RepeatedCompositeFieldContainer[Decision]
    def __init__(self, decisions: _Optional[_Iterable[_Union[Decision, _Mapping]]] = ...) -> None: ...

class Notice(_message.Message):
    __slots__ = ("table_id", "request_id", "kind", "message", "fallback", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    FALLBACK_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    request_id: int
    kind: InfractionKind
    message: str
    fallback: Action
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., request_id: _Optional[int] = ..., kind: _Optional[_Union[InfractionKind, str]] = ..., message: _Optional[str] = ..., fallback: _Optional[_Union[Action, _Mapping]] = ..., seat: _Optional[int] = ...) -> None: ...

class TableEnd(_message.Message):
    __slots__ = ("table_id", "outcome", "scores", "hands", "chien", "discard", "record_json", "seat")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    HANDS_FIELD_NUMBER: _ClassVar[int]
    CHIEN_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    RECORD_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    outcome: DealOutcome
    scores: _containers.RepeatedScalarFieldContainer[int]
    hands: _containers.RepeatedCompositeFieldContainer[CardList]
    chien: _containers.RepeatedScalarFieldContainer[int]
    discard: _containers.RepeatedScalarFieldContainer[int]
    record_json: str
    seat: int
    def __init__(self, table_id: _Optional[str] = ..., outcome: _Optional[_Union[DealOutcome, str]] = ..., scores: _Optional[_Iterable[int]] = ..., hands: _Optional[_Iterable[_Union[CardList, _Mapping]]] = ..., chien: _Optional[_Iterable[int]] = ..., discard: _Optional[_Iterable[int]] = ..., record_json: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class RegisterBotRequest(_message.Message):
    __slots__ = ("name", "owner")
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    name: str
    owner: str
    def __init__(self, name: _Optional[str] = ..., owner: _Optional[str] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("bot_id", "token")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    token: str
    def __init__(self, bot_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("bot_id", "name", "owner", "revoked", "created_at", "connections")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    name: str
    owner: str
    revoked: bool
    created_at: str
    connections: int
    def __init__(self, bot_id: _Optional[str] = ..., name: _Optional[str] = ..., owner: _Optional[str] = ..., revoked: _Optional[bool] = ..., created_at: _Optional[str] = ..., connections: _Optional[int] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class RevokeBotRequest(_message.Message):
    __slots__ = ("bot_id",)
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    def __init__(self, bot_id: _Optional[str] = ...) -> None: ...

class RevokeBotResponse(_message.Message):
    __slots__ = ("revoked",)
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    def __init__(self, revoked: _Optional[bool] = ...) -> None: ...

class ListConnectionsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ConnectionInfo(_message.Message):
    __slots__ = ("bot_id", "bot_name", "bot_version", "max_tables", "tables")
    BOT_ID_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    MAX_TABLES_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    bot_id: str
    bot_name: str
    bot_version: str
    max_tables: int
    tables: int
    def __init__(self, bot_id: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., max_tables: _Optional[int] = ..., tables: _Optional[int] = ...) -> None: ...

class ListConnectionsResponse(_message.Message):
    __slots__ = ("connections",)
    CONNECTIONS_FIELD_NUMBER: _ClassVar[int]
    connections: _containers.RepeatedCompositeFieldContainer[ConnectionInfo]
    def __init__(self, connections: _Optional[_Iterable[_Union[ConnectionInfo, _Mapping]]] = ...) -> None: ...

class TimeControl(_message.Message):
    __slots__ = ("per_decision_ms", "time_bank_ms")
    PER_DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    per_decision_ms: int
    time_bank_ms: int
    def __init__(self, per_decision_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ...) -> None: ...

class PlayTableRequest(_message.Message):
    __slots__ = ("options", "seed", "dealer", "bot_ids", "time_control", "table_id")
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    BOT_IDS_FIELD_NUMBER: _ClassVar[int]
    TIME_CONTROL_FIELD_NUMBER: _ClassVar[int]
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    options: TableOptions
    seed: int
    dealer: int
    bot_ids: _containers.RepeatedScalarFieldContainer[str]
    time_control: TimeControl
    table_id: str
    def __init__(self, options: _Optional[_Union[TableOptions, _Mapping]] = ..., seed: _Optional[int] = ..., dealer: _Optional[int] = ..., bot_ids: _Optional[_Iterable[str]] = ..., time_control: _Optional[_Union[TimeControl, _Mapping]] = ..., table_id: _Optional[str] = ...) -> None: ...

class Infraction(_message.Message):
    __slots__ = ("seat", "kind", "message", "decision_index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DECISION_INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    kind: InfractionKind
    message: str
    decision_index: int
    def __init__(self, seat: _Optional[int] = ..., kind: _Optional[_Union[InfractionKind, str]] = ..., message: _Optional[str] = ..., decision_index: _Optional[int] = ...) -> None: ...

class PlayTableResponse(_message.Message):
    __slots__ = ("table_id", "end", "infractions")
    TABLE_ID_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    INFRACTIONS_FIELD_NUMBER: _ClassVar[int]
    table_id: str
    end: TableEnd
    infractions: _containers.RepeatedCompositeFieldContainer[Infraction]
    def __init__(self, table_id: _Optional[str] = ..., end: _Optional[_Union[TableEnd, _Mapping]] = ..., infractions: _Optional[_Iterable[_Union[Infraction, _Mapping]]] = ...) -> None: ...
