"""The observations' replacer gives what dataclasses.replace gives, the results' builder what
the class's constructor gives, and both refuse what they cannot copy or build faithfully."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from arena.games import frozen, tre_e_venticinque
from arena.games.french_tarot import GameState, TableOptions, apply, legal_actions
from arena.games.french_tarot import observation as french_observation
from arena.games.frozen import builder, replacer
from arena.games.tre_e_venticinque import observation as tre_observation


@dataclasses.dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class Checked:
    """A class whose own checks neither a copy nor a build may skip unasked."""

    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("negative")


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


def test_builder_gives_what_the_constructor_gives() -> None:
    build = builder(Point)
    point = build(1, 2)
    assert type(point) is Point and point == Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 3  # type: ignore[misc]
    for values in ((1,), (1, 2, 3)):  # every field, no defaults
        with pytest.raises(TypeError, match="Point has 2 fields"):
            build(*values)


def test_builder_skips_checks_only_when_told() -> None:
    with pytest.raises(TypeError, match="__post_init__"):
        builder(Checked)
    assert builder(Checked, unchecked=True)(-1).x == -1
    with pytest.raises(TypeError, match="not a frozen dataclass with slots"):
        builder(dataclasses.dataclass(frozen=True)(type("NoSlots", (), {"__annotations__": {}})))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_french_tarot_results_are_what_their_constructors_build(players: int) -> None:
    """The engine builds its results, summaries and breakdowns with :func:`builder`: each is
    equal to the one its class's own ``__init__`` makes of the same fields, which checks the
    summary's values (a field set out of order fails these checks or the equality)."""
    rnd = random.Random(players).random
    played = 0
    for seed in range(40):
        state = GameState.from_seed(seed, TableOptions(players=players))
        while state.to_act is not None:
            legal = legal_actions(state)
            apply(state, legal[int(rnd() * len(legal))])
        result = state.result
        assert result is not None
        if result.summary is None:
            continue
        played += 1
        assert result.breakdown is not None
        for value in (result, result.summary, result.breakdown):
            assert dataclasses.replace(value) == value  # type: ignore[type-var]
        assert isinstance(result.summary.bouts, int) and 0 <= result.summary.bouts <= 3
        assert result.petit_sec_seat is None and sum(result.scores) == 0
    assert played >= 20


def _views() -> list[tuple[Any, Any]]:
    """(an observation, its game's replace): French Tarot with the dummy, 4 and 5 players, and
    Tre e Venticinque."""
    views: list[tuple[Any, Any]] = [
        (french_observation.observe(GameState.from_seed(5, TableOptions(players=players)), 1),
         french_observation.replace)
        for players in (2, 4, 5)
    ]
    views.append((tre_observation.observe(tre_e_venticinque.DealState.from_seed(3), 2),
                  tre_observation.replace))
    return views


@pytest.mark.parametrize(("view", "replace"), _views())
def test_an_observations_replace_copies_and_changes_every_field(view: Any, replace: Any) -> None:
    """Each game's replace is written field by field: each field, kept or changed, as
    dataclasses.replace makes it, and a name that is not a field refused."""
    assert replace(view) == view
    for index, field in enumerate(dataclasses.fields(view)):
        value = ("changed", index)
        changed = replace(view, **{field.name: value})
        assert type(changed) is type(view)
        assert changed == dataclasses.replace(view, **{field.name: value})
    with pytest.raises(TypeError):
        replace(view, colour="red")


def test_a_draft_becomes_the_class_or_a_copy_of_it() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        x: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Base):  # slots over a slotted base: a draft of its own slots cannot become it
        y: int

    for cls in (Point, Child):
        draft, become = frozen.twin(cls)
        made = object.__new__(draft)
        made.x, made.y = 1, 2
        value = become(made)
        assert type(value) is cls and value == cls(1, 2)  # type: ignore[call-arg]
        with pytest.raises(dataclasses.FrozenInstanceError):
            value.x = 3
    with pytest.raises(TypeError, match="__post_init__"):
        frozen.twin(Checked)

