"""Run any SDK bot from the command line.

    python -m clients.run --server HOST:PORT --token TOKEN --bot module.path:ClassName \\
        [--max-tables N] [--name NAME] [--bot-args JSON] [--connect-timeout SECONDS] [--stay]

The token may come from ``TAROT_ARENA_TOKEN`` instead, so that it stays out of ``ps`` output and
shell history. ``--bot`` names a :class:`~clients.sdk.Bot` subclass or factory (called with the
keyword arguments of ``--bot-args``) or a bot instance. If the arena accepts no connection
within ``--connect-timeout`` seconds (default 30; 0: keep trying), it gives up with exit status
1; once connected, a lost connection is always retried (backoff from 0.25 s doubling to 30 s,
with jitter), and so is an arena that says it is stopping. When the arena says it has no more
work for the bot (its tournaments are over), it exits 0; ``--stay`` keeps it connected, waiting
for the next tournament. Ctrl-C or SIGTERM closes the connection and exits 0; any error is one
line on stderr and a non-zero exit, not a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from typing import Any

from clients.sdk import ArenaRejectedError, ArenaUnreachableError, Bot, run_bot

log = logging.getLogger("clients.run")

TOKEN_ENV = "TAROT_ARENA_TOKEN"
EXIT_UNREACHABLE = 1
EXIT_REJECTED = 3
EXIT_USAGE = 2


class UsageError(Exception):
    pass


def load_bot(spec: str, kwargs: dict[str, Any]) -> Bot:
    """The bot ``module.path:Name`` names (a class, factory or instance)."""
    module_name, sep, attr = spec.partition(":")
    if not (sep and module_name and attr):
        raise UsageError(f"--bot must look like module.path:ClassName, got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"cannot import bot module {module_name!r}: {exc}") from exc
    target: Any = module
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UsageError(f"module {module_name!r} has no {attr!r}") from None
    if isinstance(target, Bot):
        if kwargs:
            raise UsageError(f"{spec} is a bot instance: --bot-args cannot apply")
        return target
    if not callable(target):
        raise UsageError(f"{spec} is neither a Bot class, a factory nor a Bot instance")
    try:
        bot = target(**kwargs)
    except TypeError as exc:
        raise UsageError(f"cannot create {spec}: {exc}") from exc
    if not isinstance(bot, Bot):
        raise UsageError(f"{spec} made a {type(bot).__name__}, not a clients.sdk.Bot")
    return bot


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m clients.run", description="Play a Tarot Arena bot."
    )
    parser.add_argument("--server", default="127.0.0.1:50051", help="arena address host:port")
    parser.add_argument("--token", default=None,
                        help=f"bot token (default: the {TOKEN_ENV} environment variable)")
    parser.add_argument("--bot", required=True, help="module.path:ClassName of the bot")
    parser.add_argument("--bot-args", default="{}", metavar="JSON",
                        help='keyword arguments for the bot, e.g. \'{"seed": 7}\'')
    parser.add_argument("--max-tables", type=int, default=1, help="tables played at once")
    parser.add_argument("--name", default=None, help="bot name shown in standings")
    parser.add_argument("--version", default=None, help="bot version sent to the arena")
    parser.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="give up if the arena accepts no connection within this time "
                             "(0: keep trying; default: %(default)g)")
    parser.add_argument("--stay", action="store_true",
                        help="keep waiting for the next tournament when the arena has no more "
                             "work for this bot (default: exit 0)")
    parser.add_argument("--log-level", default="INFO",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=args.log_level, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        token = args.token or os.environ.get(TOKEN_ENV, "")
        if not token:
            raise UsageError(f"no bot token: pass --token or set {TOKEN_ENV}")
        try:
            kwargs = json.loads(args.bot_args)
        except json.JSONDecodeError as exc:
            raise UsageError(f"--bot-args is not JSON: {exc}") from exc
        if not isinstance(kwargs, dict):
            raise UsageError("--bot-args must be a JSON object")
        if not args.connect_timeout >= 0:  # also NaN
            raise UsageError(f"--connect-timeout must be 0 or more, got {args.connect_timeout:g}")
        bot = load_bot(args.bot, kwargs)
        goodbye = run_bot(bot, args.server, token, max_tables=args.max_tables, name=args.name,
                          version=args.version, connect_timeout=args.connect_timeout or None,
                          stay=args.stay)
        if goodbye is not None:
            log.info("no more work from the arena%s: exiting",
                     f" ({goodbye.message})" if goodbye.message else "")
    except (UsageError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ArenaRejectedError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_REJECTED
    except ArenaUnreachableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNREACHABLE
    except KeyboardInterrupt:  # before the signal handlers are in place
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
