"""Run any SDK bot from the command line: the one bot runner.

    python -m clients.run BOT [--server HOST:PORT] [--token-file FILE]
        [--max-tables N] [--name NAME] [--arg KEY=VALUE ...] [--bot-args JSON]
        [--connect-timeout SECONDS] [--stay] [--tls | --tls-ca FILE]
        [--tls-cert FILE --tls-key FILE]

``BOT`` is a bundled bot's short name (:data:`PRESETS`: ``random``, ``heuristic``, ``search``,
``search-timed``, ``tre-random``, ``tre-heuristic``) or ``module.path:ClassName`` for any other.
``tarot-arena bot`` is this same runner (same options, same defaults, same exit statuses). The
module is imported from the current folder first, so ``mybot:MyBot`` finds ``./mybot.py``
however the runner was started. The token comes from ``TAROT_ARENA_TOKEN`` or ``--token-file``
(``--token`` works but warns: a command line shows in ``ps`` and in shell history). The bot
names a :class:`~clients.sdk.Bot` subclass or factory (called with the keyword arguments of
``--arg``/``--bot-args``) or a bot instance. If the arena accepts no connection within
``--connect-timeout`` seconds (default 30; 0: keep trying), it gives up with exit status 1;
once connected, a lost connection is always retried (backoff from 0.25 s doubling to 30 s, with
jitter), and so is an arena that says it is stopping. When the arena says it has no more work
for the bot (its tournaments are over), it exits 0; ``--stay`` keeps it connected, waiting for
the next tournament. Ctrl-C or SIGTERM closes the connection and exits 0; any error is one line
on stderr and a non-zero exit, not a traceback: 2 for a usage error, 3 when the arena refuses
the bot (or its TLS settings do not fit the arena's), 1 when it cannot be reached.

``--tls`` connects over TLS trusting the public roots grpcio ships (an arena with a public
certificate), ``--tls-ca FILE`` trusting the organiser's own CA instead; ``--tls-cert`` and
``--tls-key`` show the bot's certificate to an arena that asks for one (mutual TLS).
"""

from __future__ import annotations

import argparse
import importlib
import json
import logging
import os
import sys
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena import game_plugins

# gRPC's core logs each failed TLS handshake at INFO, doubling the one line the runner prints
# for it; it reads this when first imported, on the next line. Errors still show.
os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
from clients.sdk import (
    ArenaRejectedError,
    ArenaUnreachableError,
    Bot,
    ClientTls,
    run_bot,
)

log = logging.getLogger("clients.run")

TOKEN_ENV = "TAROT_ARENA_TOKEN"
EXIT_UNREACHABLE = 1
EXIT_REJECTED = 3
EXIT_USAGE = 2
DEFAULT_MAX_TABLES = 8
"""Tables a bot plays at once unless told otherwise (whichever way the runner is started)."""


class UsageError(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Preset:
    """A bundled bot by its short name: the class, the arguments it gets unless the user's
    ``--arg`` say otherwise, and one line for the help."""

    spec: str
    about: str
    args: Mapping[str, Any] = field(default_factory=dict)


SEARCH_SAMPLES = 40
"""The ``search`` preset's draws per decision: reproducible, and about 10 to 50 ms a decision
on one core (more than the heuristic's margin in the bench, well within a second's limit)."""

PRESETS: dict[str, Preset] = {
    "random": Preset("clients.random_bot:RandomBot",
                     "French Tarot: a legal action at random (seeded: --arg seed=N)"),
    "heuristic": Preset("clients.heuristic_bot:HeuristicBot",
                        "French Tarot: the rule-based bot (bids, discards and plays by rules)"),
    "search": Preset("clients.search_bot:SearchBot",
                     f"French Tarot and Tre e Venticinque: the search bot, {SEARCH_SAMPLES} "
                     f"sampled deals a card "
                     f"(reproducible; --arg samples=N)", {"samples": SEARCH_SAMPLES}),
    "search-timed": Preset("clients.search_bot:SearchBot",
                           "French Tarot and Tre e Venticinque: the search bot filling each "
                           "decision's time limit "
                           "(stronger with more time, not reproducible)"),
    "tre-random": Preset("clients.tre_bots:TreRandomBot",
                         "Tre e Venticinque: a legal action at random (--arg seed=N)"),
    "tre-heuristic": Preset("clients.tre_bots:TreHeuristicBot",
                            "Tre e Venticinque: the rule-based bot"),
}
"""The bundled bots by short name, for ``tarot-arena bot``/``try``/``compare`` and this runner."""


def presets_help() -> str:
    return "; ".join(f"{name} ({preset.about})" for name, preset in PRESETS.items())


def resolve_bot(spec: str, kwargs: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """``spec`` and ``kwargs`` with a preset's name replaced by its class and its arguments
    (the user's win); a ``module.path:ClassName`` as it is."""
    if ":" in spec:
        return spec, dict(kwargs)
    preset = PRESETS.get(spec)
    if preset is None:
        raise UsageError(f"unknown bot {spec!r}: a bundled bot's name ({', '.join(PRESETS)}) "
                         f"or module.path:ClassName")
    return preset.spec, {**preset.args, **kwargs}


def read_secret(
    *, flag: str | None, flag_name: str, file: str | None, file_flag: str, env: str,
    warn: Any = None,
) -> str:
    """A secret from (in this order) its flag, its file or its environment variable; "" if
    none. The flag works but warns (``warn`` is called with the line): a command line shows in
    ``ps`` and in shell history. A file's surrounding whitespace (its final newline) is left
    out; an empty or unreadable file is an error rather than a silent fall back to nothing."""
    if flag:
        line = (f"warning: {flag_name} shows in `ps` and in shell history: prefer {env} or "
                f"{file_flag} FILE")
        (warn or (lambda text: print(text, file=sys.stderr)))(line)
        return flag
    if file:
        try:
            secret = Path(file).read_text().strip()
        except OSError as exc:
            raise UsageError(f"cannot read {file_flag} {file}: {exc.strerror or exc}") from None
        if not secret:
            raise UsageError(f"{file_flag} {file} is empty")
        return secret
    return os.environ.get(env, "").strip()


def load_bot(spec: str, kwargs: Mapping[str, Any]) -> Bot:
    """The bot ``module.path:Name`` names (a class, factory or instance), or the bundled bot
    of that short name (:data:`PRESETS`).

    The current folder comes first on the import path, as for ``python -m``: ``mybot:MyBot``
    finds ``./mybot.py`` even from the ``tarot-arena`` script, whose own folder is the
    virtualenv's ``bin``."""
    spec, kwargs = resolve_bot(spec, kwargs)
    module_name, sep, attr = spec.partition(":")
    if not (sep and module_name and attr):
        raise UsageError(f"bad bot {spec!r}: expected module.path:ClassName")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # not found, or the module itself fails: a syntax error, its own
        raise UsageError(f"cannot import bot {spec!r}: {failure(exc)}") from exc
    target: Any = module
    for part in attr.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise UsageError(f"module {module_name!r} has no {attr!r}") from None
    if isinstance(target, Bot):
        if kwargs:
            raise UsageError(f"{spec} is a bot instance: bot arguments cannot apply")
        return target
    if not callable(target):
        raise UsageError(f"{spec} is neither a Bot class, a factory nor a Bot instance")
    try:
        bot = target(**kwargs)
    except Exception as exc:  # bad arguments (TypeError), or the constructor's own failure
        raise UsageError(f"cannot create bot {spec!r}: {failure(exc)}") from exc
    if not isinstance(bot, Bot):
        raise UsageError(f"{spec} made a {type(bot).__name__}, not a clients.sdk.Bot")
    return bot


def failure(exc: BaseException) -> str:
    """One line for an exception raised while loading a bot: its type, its message and where
    (the file and line of its innermost frame; a SyntaxError's message already says it)."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    where = ""
    if not isinstance(exc, SyntaxError):
        frames = [f for f in traceback.extract_tb(exc.__traceback__)
                  if not f.filename.startswith("<frozen") and f.filename != __file__]
        if frames:
            path = os.path.relpath(frames[-1].filename)
            path = frames[-1].filename if path.startswith("..") else path
            where = f" ({path}, line {frames[-1].lineno})"
    if isinstance(exc, ModuleNotFoundError):
        return text  # "No module named 'x'": the type adds nothing
    return f"{type(exc).__name__}: {text}{where}" if text else f"{type(exc).__name__}{where}"


def bot_arguments(pairs: Sequence[str], json_text: str) -> dict[str, Any]:
    """Keyword arguments for the bot: ``--bot-args`` (a JSON object), then each ``--arg
    KEY=VALUE`` (VALUE read as JSON when it is, ``7`` or ``true``, else as plain text)."""
    try:
        kwargs = json.loads(json_text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"--bot-args is not JSON: {exc}") from exc
    if not isinstance(kwargs, dict):
        raise UsageError("--bot-args must be a JSON object")
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.isidentifier():
            raise UsageError(f"bad --arg {pair!r}: expected KEY=VALUE, KEY a Python name")
        try:
            kwargs[key] = json.loads(text)
        except json.JSONDecodeError:
            kwargs[key] = text
    return kwargs


def parser(prog: str = "python -m clients.run") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, description="Play a Tarot Arena bot: connect to the arena and play every "
        "table it is given.",
    )
    parser.add_argument("spec", nargs="?", metavar="BOT",
                        help="the bot: module.path:ClassName (a module of the current folder "
                             f"works: mybot:MyBot) or a bundled bot's name: {presets_help()}")
    parser.add_argument("--bot", default=None, metavar="BOT",
                        help="the bot, as an option (same as the argument)")
    parser.add_argument("--server", default="127.0.0.1:50051",
                        help="arena address host:port (default: %(default)s)")
    parser.add_argument("--token-file", default=None, metavar="FILE",
                        help="read the bot token from FILE")
    parser.add_argument("--token", default=None,
                        help=f"the bot token (shows in ps: prefer {TOKEN_ENV} or --token-file)")
    parser.add_argument("--arg", action="append", default=[], metavar="KEY=VALUE",
                        help="a keyword argument for the bot class, e.g. --arg seed=7 "
                             "(repeatable)")
    parser.add_argument("--bot-args", default="{}", metavar="JSON",
                        help='keyword arguments as one JSON object, e.g. \'{"seed": 7}\'')
    parser.add_argument("--max-tables", type=int, default=DEFAULT_MAX_TABLES,
                        help="tables played at once (default: %(default)s)")
    parser.add_argument("--name", default=None,
                        help="bot name sent to the arena (default: the class's name)")
    parser.add_argument("--version", default=None, help="bot version sent to the arena")
    parser.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                        help="give up if the arena accepts no connection within this time "
                             "(0: keep trying; default: %(default)g); once connected, a lost "
                             "connection is always retried")
    parser.add_argument("--stay", action="store_true",
                        help="keep waiting for the next tournament when the arena has no more "
                             "work for this bot (default: exit 0)")
    parser.add_argument("--tls", action="store_true",
                        help="connect over TLS, trusting the public certificate authorities "
                             "(an arena with a public certificate)")
    parser.add_argument("--tls-ca", default=None, metavar="FILE",
                        help="connect over TLS, trusting the CA certificate in FILE (PEM; the "
                             "organiser's own CA)")
    parser.add_argument("--tls-cert", default=None, metavar="FILE",
                        help="the bot's certificate (PEM), for an arena that asks for one "
                             "(mutual TLS; with --tls-key)")
    parser.add_argument("--tls-key", default=None, metavar="FILE",
                        help="the key of --tls-cert (PEM)")
    parser.add_argument("--log-level", default="INFO",
                        choices=["DEBUG", "INFO", "WARNING", "ERROR"])
    return parser


class _Parser(argparse.ArgumentParser):
    """argparse, its usage errors one line (``error: ...``) like every other error."""

    def error(self, message: str) -> Any:
        raise UsageError(f"{message} (see {self.prog} --help)")


def parse_args(argv: Sequence[str] | None, prog: str = "python -m clients.run") -> (
    argparse.Namespace
):
    base = parser(prog)
    one_line = _Parser(prog=base.prog, description=base.description, parents=[base],
                       add_help=False)
    args = one_line.parse_args(argv)
    if args.spec and args.bot and args.spec != args.bot:
        raise UsageError(f"two bots given: {args.spec!r} and --bot {args.bot!r}")
    args.spec = args.bot = args.bot or args.spec
    if not args.bot:
        raise UsageError(f"which bot? give module.path:ClassName or a bundled bot's name "
                         f"({', '.join(PRESETS)}) (see {prog} --help)")
    return args


def client_tls(args: argparse.Namespace) -> ClientTls | None:
    """The TLS settings of ``--tls``, ``--tls-ca``, ``--tls-cert`` and ``--tls-key`` (None:
    plaintext); each file is checked now, so that a wrong path is one line at start."""
    if (args.tls_cert is None) != (args.tls_key is None):
        raise UsageError("--tls-cert and --tls-key go together: the certificate and its key")
    if not (args.tls or args.tls_ca or args.tls_cert):
        return None
    tls = ClientTls(ca=args.tls_ca, cert=args.tls_cert, key=args.tls_key)
    tls.credentials()  # a missing or non-PEM file: ValueError, one line
    return tls


def main(argv: Sequence[str] | None = None, prog: str = "python -m clients.run") -> int:
    try:
        args = parse_args(argv, prog)
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(level=args.log_level, stream=sys.stderr, force=True,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        token = read_secret(flag=args.token, flag_name="--token", file=args.token_file,
                            file_flag="--token-file", env=TOKEN_ENV)
        if not token:
            raise UsageError(f"no bot token: set {TOKEN_ENV} or pass --token-file FILE")
        kwargs = bot_arguments(args.arg, args.bot_args)
        if not args.connect_timeout >= 0:  # also NaN
            raise UsageError(f"--connect-timeout must be 0 or more, got {args.connect_timeout:g}")
        if args.max_tables < 1:
            raise UsageError(f"--max-tables must be at least 1, got {args.max_tables}")
        tls = client_tls(args)
        game_plugins.load()
        bot = load_bot(args.bot, kwargs)
        goodbye = run_bot(bot, args.server, token, max_tables=args.max_tables, name=args.name,
                          version=args.version, connect_timeout=args.connect_timeout or None,
                          stay=args.stay, tls=tls)
        if goodbye is not None:
            log.info("no more work from the arena%s: exiting",
                     f" ({goodbye.message})" if goodbye.message else "")
    except (UsageError, ValueError) as exc:  # GamePluginError included
        log.debug("what went wrong, for --log-level DEBUG:", exc_info=True)
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
