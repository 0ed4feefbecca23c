"""A ladder's settings: validated once, stored as JSON with the ladder."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from arena import games
from arena.games import AnyGame
from arena.games.display import game_form, score_unit
from arena.table import TimeControl

from ..duplicate.settings import Seating, SettingsError, TournamentSettings
from .rating import Play, Rating, RatingModel

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
"""A ladder's name: it is typed on the command line and read in the page's address."""
MAX_BOARDS = 100_000
"""Boards a ladder may draw (a tournament's limit: the ladder's boards are its tournament's)."""


class VersionPolicy(StrEnum):
    NEW_ENTRY = "new-entry"
    """A new ``Hello.bot_version`` is a new entry, rated from scratch."""
    CONTINUE = "continue"
    """A bot is one entry whatever its version: a new version carries the old rating on."""


@dataclass(frozen=True, slots=True)
class LadderSettings:
    name: str
    game: str = games.DEFAULT_GAME
    players: int = 4
    game_settings: Mapping[str, Any] = field(default_factory=dict)
    """The game's own table settings, as for a tournament (the game validates them)."""
    versions: VersionPolicy = VersionPolicy.NEW_ENTRY
    boards_per_hour: int | None = None
    """Boards a bot may start in any hour (None: no cap)."""
    tables_per_board: int = 8
    """Tables a board is played at before it closes: a closed board takes no one new, and
    only then are its deals and results shown."""
    per_decision: float = 1.0
    time_bank: float = 0.0
    model: RatingModel = RatingModel.MARGIN
    """What the rating reads of a comparison: the score difference (margin) or who won
    (wins). A ladder stored before there was a choice reads as wins, the model it had."""

    def __post_init__(self) -> None:
        problems = []
        if not NAME.fullmatch(self.name):
            problems.append(f"a ladder's name is 1 to 80 letters, digits, '.', '_' or '-' "
                            f"(not first), got {self.name!r}")
        if self.boards_per_hour is not None and not 1 <= self.boards_per_hour <= 10_000:
            problems.append(f"boards per hour must be 1..10000, got {self.boards_per_hour}")
        if not 2 <= self.tables_per_board <= 1000:
            problems.append("tables per board must be 2..1000 (a board at one table compares "
                            f"nothing), got {self.tables_per_board}")
        if not isinstance(self.model, RatingModel):
            try:
                object.__setattr__(self, "model", RatingModel(self.model))
            except ValueError:
                problems.append(f"a ladder's model is margin or wins, got {self.model!r}")
        if problems:
            raise SettingsError("; ".join(problems))
        tournament = self.tournament(bots=tuple(f"b{i}" for i in range(2 * self.players)))
        object.__setattr__(self, "game", tournament.game)
        object.__setattr__(self, "game_settings", dict(tournament.game_settings))

    def tournament(self, bots: tuple[str, ...], seed: int = 0) -> TournamentSettings:
        """The settings of the ladder's tournament, whose tables it plays: competition seating
        (no bot plays a board twice, opaque table ids, deals held back from the bots). Checks
        the game, its settings and the time control as any tournament's."""
        return TournamentSettings(
            name=f"ladder {self.name}", bots=bots, seating=Seating.COMPETITION,
            players=self.players, boards=MAX_BOARDS, seed=seed,
            per_decision=self.per_decision, time_bank=self.time_bank, game=self.game,
            game_settings=self.game_settings,
        )

    @property
    def rules(self) -> AnyGame:
        return games.game(self.game)

    @property
    def form(self) -> str:
        """The game and its form, as lists show it: ``French Tarot, 2 players with the
        dummy``."""
        return game_form(self.rules, self.table_options)

    @property
    def table_options(self) -> Any:
        return self.rules.options(self.players, self.game_settings)

    @property
    def rating_unit(self) -> str:
        """The ratings' unit, as labels say it: ``Elo``, or the game's score unit per board
        (``points``, ``thirds``)."""
        return "Elo" if self.model is RatingModel.WINS else score_unit(self.rules).name

    def fit(self, plays: Iterable[Play], entries: Iterable[int] = ()) -> dict[int, Rating]:
        """The ladder's model fitted to ``plays``, at its seats (whose scores add up to a
        fixed sum), a comparison's spread floored at :attr:`floor`."""
        return self.model.fit(plays, entries, self.players, self.floor)

    @property
    def floor(self) -> float:
        """The least standard deviation of a comparison the margin model reads: one point of
        the game, in its score units."""
        return float(score_unit(self.rules).per_point)

    @property
    def time_control(self) -> TimeControl:
        return TimeControl(self.per_decision, self.time_bank)

    def to_json(self) -> str:
        data = asdict(self)
        data["versions"] = self.versions.value
        data["model"] = self.model.value
        data["game_settings"] = dict(self.game_settings)
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> LadderSettings:
        data = json.loads(text)
        data["versions"] = VersionPolicy(data["versions"])
        data["model"] = RatingModel(data.get("model", RatingModel.WINS.value))
        return cls(**data)
