"""A tournament's game settings are the game's own declared settings: validated by the game,
stored under the game's names beside the tournament's, read back from rows written before
(when every tournament carried French Tarot's two)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from arena import games
from tests.toy_game.game import TOY_GAME
from tournaments.duplicate.settings import SettingsError, TournamentSettings

OLD_FRENCH_ROW = (
    '{"beginner": true, "boards": 8, "bots": ["a", "b", "c", "d"], "compare": null, '
    '"direction": "clockwise", "game": "french-tarot", "name": "x", "penalties": '
    '{"disqualify_after": null, "kind": "none", "points": 0}, "per_decision": 1.0, '
    '"players": 4, "scoring": "datum", "seating": "rotation", "seed": "0", '
    '"tables_per_board": null, "time_bank": 0.0}'
)
"""A French Tarot tournament's settings as stored before: written the same today."""


@pytest.fixture
def toy() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games._GAMES, TOY_GAME.name, TOY_GAME)
        yield


def test_french_tarot_settings_are_stored_as_they_always_were() -> None:
    settings = TournamentSettings.from_json(OLD_FRENCH_ROW)
    assert settings.game_settings == {"beginner": True, "direction": "clockwise"}
    assert settings.table_options.beginner
    assert settings.to_json() == OLD_FRENCH_ROW
    made = TournamentSettings("x", ("a", "b", "c", "d"),
                              game_settings={"beginner": True, "direction": "clockwise"})
    assert made == settings and made.to_json() == OLD_FRENCH_ROW


def test_an_old_row_of_another_game_with_french_tarots_defaults_is_read() -> None:
    row = {**json.loads(OLD_FRENCH_ROW), "game": "tre-e-venticinque", "players": 3,
           "bots": ["a", "b", "c"], "beginner": False, "direction": "counter-clockwise"}
    settings = TournamentSettings.from_json(json.dumps(row))
    assert settings.game_settings == {}
    assert "beginner" not in json.loads(settings.to_json())


def test_a_stored_setting_no_one_declares_is_refused_by_name() -> None:
    row = {**json.loads(OLD_FRENCH_ROW), "colour": "blue"}
    with pytest.raises(SettingsError, match="'colour', which is neither a tournament setting"):
        TournamentSettings.from_json(json.dumps(row))


def test_the_game_validates_its_settings() -> None:
    with pytest.raises(SettingsError, match="unknown settings beginner: Tre e Venticinque"):
        TournamentSettings("t", ("a", "b", "c"), players=3, game="tre-e-venticinque",
                           game_settings={"beginner": True})
    with pytest.raises(SettingsError, match="unknown direction 'up'"):
        TournamentSettings("t", ("a", "b", "c", "d"), game_settings={"direction": "up"})


def test_a_plugin_games_settings_are_stored_and_played_like_french_tarots(toy: None) -> None:
    settings = TournamentSettings("t", ("a", "b", "c"), players=3, game="toy",
                                  game_settings={"trumps": True})
    stored = json.loads(settings.to_json())
    assert stored["trumps"] is True and "beginner" not in stored
    again = TournamentSettings.from_json(settings.to_json())
    assert again == settings and again.table_options.trumps
    assert TournamentSettings("t", ("a", "b", "c"), players=3,
                              game="toy").game_settings == {"trumps": False}
