"""The cumulative duplicate score plot, drawn as SVG on the server (no script, no library).

Each bot's line is its cumulative datum over the boards it played; the band around it is the
95 % interval of that cumulative. Lines are told apart by colour and by dash pattern, so that
the plot still reads without colour; the legend and a text summary name every bot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_POINTS = 300
"""Points drawn per line at most: a 10,000-board line is thinned to keep the page light."""

BAND_FROM = 5
"""The band is drawn from this many boards on (from two for a bot with fewer boards)."""

COLOURS = ("#1f6fb4", "#d4661a", "#2b8a3e", "#b8262d", "#7048a8", "#8c564b", "#c2408f",
           "#5f6b73", "#a08b00", "#138d90")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True, slots=True)
class Series:
    bot_id: str
    name: str
    colour: str
    dash: str
    path: str
    band: str
    final: float
    boards: int


@dataclass(frozen=True, slots=True)
class Plot:
    width: int
    height: int
    left: int
    top: int
    right: int
    bottom: int
    series: list[Series]
    x_ticks: list[tuple[float, str]]
    y_ticks: list[tuple[float, str]]
    zero: float | None


def _thin(points: list[tuple[int, float, float]]) -> list[tuple[int, float, float]]:
    if len(points) <= MAX_POINTS:
        return points
    step = len(points) / (MAX_POINTS - 1)
    picked = [points[min(len(points) - 1, round(i * step))] for i in range(MAX_POINTS - 1)]
    return [*picked, points[-1]]


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    span = high - low
    if span <= 0:
        return [low]
    raw = span / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first = math.ceil(low / step) * step
    out = []
    value = first
    while value <= high + 1e-9:
        out.append(0.0 if abs(value) < step / 1e6 else value)
        value += step
    return out


def cumulative_plot(
    cumulative: dict[str, list[tuple[int, float, float]]],
    names: dict[str, str],
    order: list[str],
    boards: int,
) -> Plot | None:
    """The plot of ``cumulative`` (see :func:`views.cumulative_scores`), bots in ``order``."""
    bots = [b for b in order if cumulative.get(b)]
    if not any(len(cumulative[b]) >= 2 for b in bots):
        return None  # a line needs two boards
    width, height, left, right, top, bottom = 760, 340, 64, 16, 14, 40
    thinned = {b: _thin(cumulative[b]) for b in bots}
    # The interval after two or three boards is wide (Student's t with one or two degrees of
    # freedom) and says little: the band starts at the fifth board, the scale follows it.
    low, high = 0.0, 0.0
    for points in thinned.values():
        for k, (_, total, half) in enumerate(points, start=1):
            h = half if math.isfinite(half) and (k >= BAND_FROM or k == len(points)) else 0.0
            low, high = min(low, total - h), max(high, total + h)
    if high == low:
        high, low = high + 1, low - 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad
    x_max = max(1, boards - 1)
    plot_w, plot_h = width - left - right, height - top - bottom

    def x(board: float) -> float:
        return round(left + plot_w * board / x_max, 1)

    def y(value: float) -> float:
        return round(top + plot_h * (high - value) / (high - low), 1)

    series = []
    for i, bot in enumerate(bots):
        points = thinned[bot]
        path = "M" + " L".join(f"{x(b)},{y(v)}" for b, v, _ in points)
        banded = [(b, v, h) for k, (b, v, h) in enumerate(points, start=1)
                  if math.isfinite(h) and (k >= BAND_FROM or len(points) < BAND_FROM)]
        band = ""
        if len(banded) >= 2:
            upper = [f"{x(b)},{y(v + h)}" for b, v, h in banded]
            lower = [f"{x(b)},{y(v - h)}" for b, v, h in reversed(banded)]
            band = "M" + " L".join(upper + lower) + " Z"
        series.append(Series(bot, names.get(bot, bot), COLOURS[i % len(COLOURS)],
                             DASHES[i % len(DASHES)], path, band, cumulative[bot][-1][1],
                             len(cumulative[bot])))
    x_ticks = [(x(t), str(int(t))) for t in _ticks(0, x_max, 6) if float(t).is_integer()]
    y_ticks = [(y(t), f"{t:+,.0f}" if t else "0") for t in _ticks(low, high, 5)]
    zero = y(0.0) if low < 0 < high else None
    return Plot(width, height, left, top, width - right, height - bottom, series, x_ticks,
                y_ticks, zero)
