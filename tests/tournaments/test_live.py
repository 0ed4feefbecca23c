"""Log lines during the live progress display are printed above it, whole, and the display
stays one display: what a terminal shows is replayed here from the bytes written to it."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Iterator

import pytest
from rich.console import Console

from tournaments.play.live import TournamentProgress

CSI = re.compile(r"\x1b\[([0-9;?]*)([A-Za-z])")


class Terminal(io.StringIO):
    """What the console and the log handler both write to: one screen."""

    def isatty(self) -> bool:
        return True


def screen(output: str) -> list[str]:
    """The lines a terminal shows after ``output`` (the codes rich writes: cursor up and
    down, erase in line, carriage return; colours and cursor visibility ignored)."""
    lines: list[list[str]] = [[]]
    row = col = 0
    position = 0
    while position < len(output):
        match = CSI.match(output, position)
        if match:
            argument, code = match.groups()
            count = int(argument) if argument.isdigit() else 1
            if code == "A":
                row = max(0, row - count)
            elif code == "B":
                row += count
            elif code == "K":
                if argument in ("", "0"):
                    del lines[row][col:]
                else:
                    lines[row] = []
            elif code == "G":
                col = count - 1
            position = match.end()
            while len(lines) <= row:
                lines.append([])
            continue
        char = output[position]
        position += 1
        if char == "\n":
            row, col = row + 1, 0
            while len(lines) <= row:
                lines.append([])
        elif char == "\r":
            col = 0
        else:
            line = lines[row]
            line.extend(" " * (col - len(line)))
            if col < len(line):
                line[col] = char
            else:
                line.append(char)
            col += 1
    return ["".join(line).rstrip() for line in lines if "".join(line).strip()]


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    """A handler of the root logger writing to the terminal, as ``logging.basicConfig`` sets
    one up on stderr (the same screen as the console's stdout)."""
    out = Terminal()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield out
    finally:
        root.removeHandler(handler)


def test_a_log_line_during_the_progress_display_is_printed_above_it(
    terminal: Terminal,
) -> None:
    console = Console(file=terminal, width=80, force_terminal=True, color_system=None)
    runner_log = logging.getLogger("tournaments.play.runner")
    with TournamentProgress(console) as bar:
        task = bar.add_task("tour_1a2b3c4d5e6f", total=10, completed=3, boards=0,
                            board_total=1, running=2, infractions=0)
        bar.refresh()
        runner_log.warning("lost the claim on table [tour_x-b0000-t1] (its lease ran out): "
                           "another arena replays it, this result will not be stored")
        bar.update(task, completed=4)
        bar.refresh()
        runner_log.warning("a second line")
        bar.update(task, completed=5)
        bar.refresh()
    shown = screen(terminal.getvalue())
    warning = ("WARNING tournaments.play.runner: lost the claim on table [tour_x-b0000-t1] (its "
               "lease ran out): another arena replays it, this result will not be stored")
    assert warning in " ".join(shown)  # wrapped at 80 columns, whole
    assert "WARNING tournaments.play.runner: a second line" in shown
    bars = [line for line in shown if "tour_1a2b3c4d5e6f" in line]
    assert len(bars) == 1 and "5/10 tables" in bars[0]  # one display, drawn over itself
    assert shown.index(bars[0]) > shown.index("WARNING tournaments.play.runner: a second line")
    assert shown[-1].strip().startswith("boards 0/1")
    assert not [line for line in shown if "WARNING" in line and "tables" in line]
    # once the display is gone, log lines go straight to the terminal again
    runner_log.warning("after")
    assert terminal.getvalue().endswith("WARNING tournaments.play.runner: after\n")
