"""``python -m tournaments.cli``: the same command as ``tarot-arena``."""

import os

from .launch import main

if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
