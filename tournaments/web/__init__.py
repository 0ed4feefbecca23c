"""The arena's read-only web page: live standings, boards side by side, a replay viewer, bots.

See :mod:`.app` for the routes, :mod:`.views` for what may be shown (the secrecy rule),
:mod:`.feed` for the live updates, :mod:`.server` for serving it with Hypercorn's trio worker
and :mod:`.apart` for serving it beside the arena in a process of its own.
"""

from .apart import serve_web
from .app import create_app
from .server import DEFAULT_WEB_PORT, run_web

__all__ = ["DEFAULT_WEB_PORT", "create_app", "run_web", "serve_web"]
