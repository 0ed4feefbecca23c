"""The web page's own process, as :mod:`.apart` starts it beside the arena (``tarot-arena web``
serves the page on its own)."""

import sys

from .apart import main

main(sys.argv[1:])
