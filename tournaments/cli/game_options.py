"""The options that choose a game and its form, shared by every command that plays one
(``tournament create``, ``ladder create``, ``compare``): one wording, one reading."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Annotated, Any

import typer


class GameOptionError(ValueError):
    """A game option the command line cannot take; the message says which and why."""


GameOption = Annotated[str | None, typer.Option(help=(
    "The game: french-tarot (the default) or another the arena knows (tarot-arena games lists "
    "them)."))]
PlayersOption = Annotated[int | None, typer.Option(help=(
    "Players per table. French Tarot: 2 (with the dummy), 3, 4 (the default) or 5; Tre e "
    "Venticinque: 3 (tarot-arena games lists every game's)."))]
VariantOption = Annotated[str, typer.Option(
    help="French Tarot: classic, or beginner (Petite and Garde only, no poignée, no chelem).")]
DirectionOption = Annotated[str, typer.Option(
    help="French Tarot: counter-clockwise or clockwise.")]
SettingOption = Annotated[list[str] | None, typer.Option(help=(
    "NAME=VALUE: a setting of the game (tarot-arena games lists each game's), e.g. --setting "
    "direction=clockwise; VALUE is true, false, a number or a word. Repeat for several."))]
CLASSIC = "classic"
COUNTER_CLOCKWISE = "counter-clockwise"


def table_settings(variant: str, direction: str, given: Sequence[str] = ()) -> dict[str, Any]:
    """The game settings asked for: ``--variant`` and ``--direction`` (French Tarot's
    ``beginner`` and ``direction``) when not left at their defaults, and every
    ``--setting NAME=VALUE``. The game validates them: one it does not have is refused in its
    own words."""
    if variant not in (CLASSIC, "beginner"):
        raise GameOptionError(f"unknown variant {variant!r}: expected classic or beginner")
    asked: dict[str, Any] = {}
    if variant == "beginner":
        asked["beginner"] = True
    if direction != COUNTER_CLOCKWISE:
        asked["direction"] = direction
    for item in given:
        name, equals, text = item.partition("=")
        if not equals or not name.strip():
            raise GameOptionError(f"--setting takes NAME=VALUE, got {item!r}")
        try:
            value: Any = json.loads(text)
        except ValueError:
            value = text
        if not isinstance(value, bool | int | float | str):
            value = text
        name = name.strip()
        if name in asked and asked[name] != value:
            raise GameOptionError(f"--setting {name}={text} contradicts another option asking "
                                  f"{name}={json.dumps(asked[name])}")
        asked[name] = value
    return asked
