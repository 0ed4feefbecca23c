"""The ``tarot-arena`` entry point. ``tarot-arena bot`` goes straight to the bot runner, as
``python -m clients.run`` does: a bot process needs neither the storage (SQLModel, SQLAlchemy)
nor the rest of the command line, whose imports cost every bot's start about 0.8 s of CPU (a
tournament of strangers' bots, the demo, the suite start dozens). Every other command is the
application of :mod:`.commands`."""

from __future__ import annotations

import os
import sys

from .options import split_global_options

BOT_COMMAND = "bot"


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
