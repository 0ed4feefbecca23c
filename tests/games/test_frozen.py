"""The observations' replacer gives what dataclasses.replace gives, and refuses what it cannot
copy faithfully."""

from __future__ import annotations

import dataclasses

import pytest

from arena.games import tre_e_venticinque
from arena.games.french_tarot import GameState, TableOptions
from arena.games.french_tarot import observation as french_observation
from arena.games.frozen import replacer
from arena.games.tre_e_venticinque import observation as tre_observation


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0


def test_same_value_as_dataclasses_replace() -> None:
    replace = replacer(Point)
    point = Point(1, 2)
    moved = replace(point, y=5)
    assert moved == dataclasses.replace(point, y=5) == Point(1, 5)
    assert point == Point(1, 2)  # the original untouched
    assert replace(point) == point and replace(point) is not point
    with pytest.raises(dataclasses.FrozenInstanceError):
        moved.x = 3  # type: ignore[misc]


def test_unknown_field_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="Point has no field 'z'"):
        replacer(Point)(Point(1), z=3)


def test_refuses_what_a_copy_would_get_wrong() -> None:
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError("negative")

    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived:
        x: int
        twice: int = dataclasses.field(init=False, default=0)

    for cls, reason in ((NoSlots, "not a frozen dataclass with slots"),
                        (Checked, "__post_init__"), (Derived, "outside __init__")):
        with pytest.raises(TypeError, match=reason):
            replacer(cls)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_french_tarot_observation_changes_as_with_dataclasses(players: int) -> None:
    state = GameState.from_seed(11, TableOptions(players=players))
    view = french_observation.observe(state, 0)
    changes = {"to_act": None, "legal_actions": (), "hand": view.hand[1:], "dummy": (3,)}
    assert french_observation.replace(view, **changes) == dataclasses.replace(view, **changes)


def test_tre_e_venticinque_observation_changes_as_with_dataclasses() -> None:
    state = tre_e_venticinque.DealState.from_seed(11)
    view = tre_observation.observe(state, 1)
    changes = {"phase": tre_e_venticinque.Phase.PLAYING, "current_trick": ((1, 5),)}
    assert tre_observation.replace(view, **changes) == dataclasses.replace(view, **changes)
