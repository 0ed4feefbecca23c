"""A tournament's settings: validated once, stored as JSON with the tournament."""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any

from arena import games
from arena.games import Game
from arena.games.dealing import MAX_SEED
from arena.table import TimeControl


class Seating(StrEnum):
    ROTATION = "rotation"
    FIELD = "field"
    GAUNTLET = "gauntlet"
    COMPETITION = "competition"
    """No bot plays a board twice: safe against bots that remember (see :attr:`safe`)."""

    @property
    def safe(self) -> bool:
        """Whether a bot that remembers everything it is sent still learns no hand but its own.

        Only competition seating is: no bot plays a board twice, table ids say nothing about the
        board, a bot's TableEnd carries the result and scores but not the deal, and the seed stays
        secret until the tournament is finished. Rotation, field and gauntlet seat a bot at
        several tables of one board (rotation: every hand of it), which is right for testing
        one's own bots and wrong for a competition between strangers.
        """
        return self is Seating.COMPETITION


def seed_for(seating: Seating, given: int | None) -> int:
    """The seed of a new tournament: the one given, else 0, except for a safe seating, where
    a predictable seed would let anyone deal the boards in advance: a random 64-bit one."""
    if given is not None:
        return given
    return secrets.randbits(64) if seating.safe else 0


class PenaltyKind(StrEnum):
    NONE = "none"
    POINTS = "points"
    """A fixed number of points off the seat's score per infraction."""
    FORFEIT = "forfeit"
    """A seat with an infraction takes its comparison group's worst result."""


class ScoringMethod(StrEnum):
    DATUM = "datum"
    """Butler: score minus the comparison group's mean."""
    MATCHPOINTS = "matchpoints"
    """FFT 'topage': best 100 %, worst 0 %, equal steps, ties share."""


class SettingsError(ValueError):
    """Settings that cannot make a tournament; the message says which and why."""


def field_tables_problem(bots: int, players: int, tables_per_board: int | None) -> list[str]:
    """Field seating never gives a bot the same hand twice, so each hand of a board is held by
    a different bot at every table: a board can have at most as many tables as there are bots
    (the schedule would otherwise run out of bots while planning)."""
    if tables_per_board is None or bots <= players or tables_per_board <= bots:
        return []
    return [f"field seating with {bots} bots allows at most {bots} tables per board (each "
            f"table needs a different bot in each hand), got {tables_per_board}"]


@dataclass(frozen=True, slots=True)
class Penalties:
    kind: PenaltyKind = PenaltyKind.NONE
    points: int = 0
    disqualify_after: int | None = None
    """Infractions after which a bot is disqualified (None: never)."""


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    name: str
    bots: tuple[str, ...]
    """Bot ids. Gauntlet: (candidate, reference)."""
    seating: Seating = Seating.ROTATION
    players: int = 4
    boards: int = 8
    seed: int = 0
    per_decision: float = 1.0
    time_bank: float = 0.0
    tables_per_board: int | None = None
    """Field seating: tables per board (default: enough to seat every bot, at least 2).
    Competition seating: tables per board, 2 .. bots // players (default: as many as fit)."""
    penalties: Penalties = field(default_factory=Penalties)
    scoring: ScoringMethod = ScoringMethod.DATUM
    compare: str | None = None
    """A ``tarot-arena compare``: its sequential test and bots as JSON (see
    :mod:`tournaments.cli.compare`), which decides when the tournament stops; None otherwise."""
    game: str = games.DEFAULT_GAME
    """The game every table plays (``arena.games.names()``)."""
    game_settings: Mapping[str, Any] = field(default_factory=dict)
    """The game's own table settings by name, as its declaration lists them (French Tarot's
    ``beginner`` and ``direction``; Tre e Venticinque has none): the game validates them, and
    one left out takes the game's default. Once made, every one the game declares, as the game
    writes it in JSON; stored beside the tournament's own settings, by the game's names."""

    def __post_init__(self) -> None:
        problems = list(self._problems())
        if problems:
            raise SettingsError("; ".join(problems))
        # as the game writes them, every one it declares: equal settings compare equal
        options = self.rules.options_to_json(self.table_options)
        object.__setattr__(self, "game_settings",
                           {k: v for k, v in options.items() if k != "players"})

    def _problems(self) -> list[str]:
        out = []
        if not self.name.strip() or len(self.name) > 100:
            out.append("the name must be 1 to 100 characters")
        try:
            rules = games.game(self.game)
        except ValueError as exc:
            return [str(exc)]
        counts = rules.seat_counts()
        if self.players not in counts:
            allowed = f"exactly {counts[0]}" if len(counts) == 1 else (
                ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
            )
            return [f"{rules.title} is played by {allowed} players, not {self.players}"]
        clash = sorted(setting.name for setting in rules.declaration.settings
                       if setting.name in _FIELDS)
        if clash:
            return [f"{rules.title}'s setting {clash[0]!r} has the name of a tournament "
                    "setting: it cannot be stored"]
        try:
            rules.options(self.players, self.game_settings)
        except ValueError as exc:
            out.append(str(exc))
        if not 1 <= self.boards <= 100_000:
            out.append(f"boards must be 1..100000, got {self.boards}")
        if not 0 <= self.seed <= MAX_SEED:
            out.append(f"the seed must be an integer in 0..{MAX_SEED}, got {self.seed}")
        if len(set(self.bots)) != len(self.bots):
            out.append("a bot is listed twice")
        n = len(self.bots)
        if self.seating is Seating.ROTATION and n != self.players:
            out.append(f"rotation seating needs exactly {self.players} bots (one per seat), "
                       f"got {n}")
        if self.seating is Seating.FIELD:
            if n <= self.players:
                out.append(f"field seating needs more bots than seats ({self.players}), got {n}")
            if self.tables_per_board is not None and not 2 <= self.tables_per_board <= 64:
                out.append("tables per board must be 2..64")
            out.extend(field_tables_problem(n, self.players, self.tables_per_board))
        elif self.seating is Seating.COMPETITION:
            out.extend(self._competition_problems())
        elif self.tables_per_board is not None:
            out.append("tables per board is a setting of competition or field seating only")
        if self.seating is Seating.GAUNTLET and n not in (2, 3):
            out.append(f"gauntlet seating needs 2 bots (candidate, reference) or 3 (candidate, "
                       f"reference, filler), got {n}")
        if not 0 < self.per_decision <= 600:
            out.append(f"time per decision must be in (0, 600] seconds, got {self.per_decision}")
        if not 0 <= self.time_bank <= 3600:
            out.append(f"the time bank must be 0..3600 seconds, got {self.time_bank}")
        p = self.penalties
        if p.kind is PenaltyKind.POINTS and p.points <= 0:
            out.append("a points penalty needs a positive number of points")
        if p.disqualify_after is not None and p.disqualify_after < 1:
            out.append("disqualify after must be at least 1 infraction")
        return out

    def _competition_problems(self) -> list[str]:
        """Every board at two tables at least (or nothing is compared), by different bots."""
        n, players = len(self.bots), self.players
        if n < 2 * players:
            return [f"competition seating needs at least {2 * players} bots (2 x {players} "
                    f"players: every board is played at 2 tables or more, never twice by one "
                    f"bot), got {n}"]
        most = n // players
        if self.tables_per_board is not None and not 2 <= self.tables_per_board <= most:
            allowed = "2" if most == 2 else f"2..{most}"
            return [f"tables per board must be {allowed} with {n} bots in competition seating "
                    f"(no bot plays a board twice), got {self.tables_per_board}"]
        return []

    @property
    def reveal_deals(self) -> bool:
        """Whether a bot's TableEnd shows the whole deal (not in a safe seating: a board is
        still being played at other tables when one of its tables ends)."""
        return not self.seating.safe

    @property
    def rules(self) -> Game:
        """The game every table of the tournament plays."""
        return games.game(self.game)

    @property
    def table_options(self) -> Any:
        """The game's options for every table (French Tarot: a
        :class:`~arena.games.french_tarot.TableOptions`)."""
        return self.rules.options(self.players, self.game_settings)

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.per_decision, self.time_bank)

    def to_json(self) -> str:
        """Every setting, the game's own as the game writes them (every one it declares, at its
        default if not given): a French Tarot tournament's JSON is what it always was."""
        data: dict[str, Any] = asdict(self)
        del data["game_settings"]
        data["bots"] = list(self.bots)
        data["seating"] = self.seating.value
        data["scoring"] = self.scoring.value
        data["penalties"]["kind"] = self.penalties.kind.value
        data["seed"] = str(self.seed)
        data.update(self.game_settings)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> TournamentSettings:
        """Settings as :meth:`to_json` wrote them, or as stored before games declared their
        settings: every tournament then also carried French Tarot's (the default game's), at
        their defaults for the other games, which are dropped."""
        data = json.loads(text)
        penalties = data.pop("penalties")
        own = {k: v for k, v in data.items() if k in _FIELDS}
        rest = {k: v for k, v in data.items() if k not in _FIELDS}
        rules = games.game(own.get("game", games.DEFAULT_GAME))
        declared = {setting.name for setting in rules.declaration.settings}
        legacy = {setting.name: setting.default
                  for setting in games.game(games.DEFAULT_GAME).declaration.settings}
        unknown = sorted(k for k, v in rest.items()
                         if k not in declared and not (k in legacy and v == legacy[k]))
        if unknown:
            raise SettingsError(f"stored settings name {unknown[0]!r}, which is neither a "
                                f"tournament setting nor one of {rules.title}'s")
        return cls(
            **{
                **own,
                "bots": tuple(own["bots"]),
                "seating": Seating(own["seating"]),
                "scoring": ScoringMethod(own["scoring"]),
                "seed": int(own["seed"]),
                "penalties": Penalties(
                    PenaltyKind(penalties["kind"]), penalties["points"],
                    penalties["disqualify_after"],
                ),
                "game_settings": {k: v for k, v in rest.items() if k in declared},
            }
        )


_FIELDS = frozenset(f.name for f in fields(TournamentSettings)) - {"game_settings"}
"""The tournament's own settings, by name: a game's setting may take none of them."""
