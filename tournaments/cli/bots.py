"""Bots named on the command line (``try``, ``compare --local``): the one loader of bot specs.

A spec is a bundled bot's short name or ``module.path:ClassName``, loaded by
:func:`clients.run.load_bot`, the loader of ``tarot-arena bot`` (and so of the demo's bot
processes) too. A spec that cannot be loaded (unknown, a module that does not import, a syntax
error, a class whose constructor fails) is a usage error wherever it is typed: one line naming
the spec, the exception and where it was raised, and exit status 2; ``--debug`` shows the
traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from clients.sdk import Bot

EXIT_USAGE = 2


class BotSpecError(ValueError):
    """A bot the command line names but that cannot be loaded; the message says why."""

    exit_code = EXIT_USAGE


def load_bot_spec(spec: str, kwargs: Mapping[str, Any] | None = None) -> Bot:
    """The bot ``spec`` names, made with ``kwargs``, or a :class:`BotSpecError` saying why
    not."""
    from clients.run import UsageError, load_bot

    try:
        return load_bot(spec, kwargs or {})
    except UsageError as exc:
        raise BotSpecError(str(exc)) from exc


def bot_kwargs(pairs: list[str]) -> dict[str, Any]:
    """``--arg KEY=VALUE`` pairs as the bot's keyword arguments (as for ``tarot-arena bot``)."""
    from clients.run import UsageError, bot_arguments

    try:
        return bot_arguments(pairs, "{}")
    except UsageError as exc:
        raise BotSpecError(str(exc)) from None


def bot_failure(exc: BaseException) -> list[str] | None:
    """What ``try`` prints when a bot raised while it played in this process: a line naming
    the bot, the table, the seat and the decision, then the traceback of the bot's own frames
    only (from the call into the bot on), or None when the exception did not come from a bot
    (the arena's own failure: shown as any other error).

    The arena's frames above the bot (the command, the in-process arena, the table runner) say
    nothing about the bot's bug; ``--debug`` shows them."""
    import traceback

    from clients.local import LocalSeat

    calls = {LocalSeat.ask.__code__, LocalSeat._hook.__code__}
    entry = exc.__traceback__
    into_bot = None
    while entry is not None:
        if entry.tb_frame.f_code in calls:
            into_bot = entry
        entry = entry.tb_next
    if into_bot is None or into_bot.tb_next is None:
        return None
    where = _decision(into_bot.tb_frame.f_locals)
    own = traceback.extract_tb(into_bot.tb_next)
    lines = [f"{where}: {type(exc).__name__}: {exc}".rstrip(": ") if str(exc) else
             f"{where}: {type(exc).__name__}",
             "Traceback of the bot (most recent call last; --debug shows the arena's frames "
             "too):"]
    lines += [line.rstrip("\n") for line in traceback.format_list(own)]
    lines += [line.rstrip("\n") for line in traceback.format_exception_only(exc)]
    return lines


def _decision(frame_locals: Mapping[str, Any]) -> str:
    """The bot, table, seat and decision of the in-process seat's frame that called the bot."""
    from arena.table import DecisionRequest

    seat = frame_locals.get("self")
    bot = getattr(getattr(seat, "bot", None), "display_name", "the bot")
    request = frame_locals.get("request")
    if isinstance(request, DecisionRequest):
        return (f"{bot} raised at table {request.table_id}, seat {request.seat}, asked to "
                f"{request.kind or 'decide'}")
    hook = getattr(frame_locals.get("fn"), "__name__", "a hook")
    view = getattr(seat, "view", None)
    table = f" at table {view.table_id}, seat {view.seat}" if view is not None else ""
    return f"{bot} raised in {hook}{table}"
