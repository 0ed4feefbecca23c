"""The ``tarot-arena`` entry point. ``tarot-arena bot`` goes straight to the bot runner, as
``python -m clients.run`` does: a bot process needs neither the storage (SQLModel, SQLAlchemy)
nor the rest of the command line, whose imports cost every bot's start about 0.8 s of CPU (a
tournament of strangers' bots, the demo, the suite start dozens). Every other command is the
application of :mod:`.commands`."""

from __future__ import annotations

import os
import sys

GLOBAL_FLAGS = ("--debug", "--no-debug", "--create-dir")
GLOBAL_OPTIONS = ("--db",)
BOT_COMMAND = "bot"


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


def bot_arguments(argv: list[str]) -> list[str] | None:
    """The bot runner's arguments when the command is ``bot`` (``--debug`` anywhere asks it
    for debug logs, as the application's ``bot`` command does), else None."""
    moved, rest = split_global_options(argv)
    if not rest or rest[0] != BOT_COMMAND:
        return None
    args = rest[1:]
    flags = [a for a in moved if a in ("--debug", "--no-debug")]
    if flags and flags[-1] == "--debug" and not any(a.startswith("--log-level") for a in args):
        end = args.index("--") if "--" in args else len(args)
        args[end:end] = ["--log-level", "DEBUG"]
    return args


def main() -> None:
    args = bot_arguments(sys.argv[1:])
    if args is None:
        from .commands import main as application

        application()
        return
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")  # as the application's quiet_grpc_core
    from clients.run import main as run_bot

    sys.exit(run_bot(args, prog="tarot-arena bot"))
