"""The options of the whole ``tarot-arena`` program, which work wherever they are typed: read
by the entry point before it knows which command runs (:mod:`.launch`) and by the application
(:mod:`.commands`)."""

from __future__ import annotations

GLOBAL_FLAGS = ("--debug", "--no-debug", "--create-dir")
GLOBAL_OPTIONS = ("--db",)


def split_global_options(argv: list[str]) -> tuple[list[str], list[str]]:
    """The options of the whole program (``--debug``, ``--db URL``, ``--create-dir``) wherever
    they are typed, and the rest in order. Nothing after ``--`` is an option of the program."""
    moved: list[str] = []
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            rest += [arg, *args]
            break
        if arg in GLOBAL_FLAGS or arg.startswith(tuple(f"{o}=" for o in GLOBAL_OPTIONS)):
            moved.append(arg)
        elif arg in GLOBAL_OPTIONS:
            moved += [arg, *[value for value in [next(args, None)] if value is not None]]
        else:
            rest.append(arg)
    return moved, rest


def global_options_first(argv: list[str]) -> list[str]:
    """The options of the whole program moved in front of the command, so they work wherever
    they are typed: ``tarot-arena standings X --debug`` as well as ``tarot-arena --debug
    standings X``."""
    moved, rest = split_global_options(argv)
    return moved + rest
