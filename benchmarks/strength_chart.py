"""The strength chart: Leyden's Elo against each opponent, with its 95% interval, one
row per game and opponent, one panel per time control. Plain SVG written by hand (no
plotting library): a dot for the estimate, a bar for the interval, a line at 0 Elo.

``svg(panels)`` takes ``[(time control, [(game, opponent, elo, low, high), ...]), ...]``.
"""
from __future__ import annotations

import math
from html import escape

LIMIT = 800.0  # Elo shown on each side of 0; an interval reaching past it ends in an arrow
WIDTH = 780
LABEL = 300    # width of the "game · opponent" column
ROW = 22
PANEL_GAP = 46
COLOURS = {"fairymax": "#1f77b4", "sjaakii": "#2ca02c", "fairy-stockfish": "#d62728"}
SELF = "#7f4fb0"  # Leyden against itself at time or depth odds, or against an earlier commit


def _x(elo: float) -> float:
    """Pixel column of an Elo value, clipped to the plot."""
    clipped = max(-LIMIT, min(LIMIT, elo))
    return LABEL + 14 + (clipped + LIMIT) / (2 * LIMIT) * (WIDTH - LABEL - 84)  # clear of the labels


def _colour(opponent: str) -> str:
    return COLOURS.get(opponent, SELF)


def _panel(y: float, tc: str, rows) -> tuple[list[str], float]:
    """The SVG elements of one time control's panel, and the y below it."""
    out = [f'<text x="10" y="{y + 16}" class="title">Time control {escape(tc)} '
           f'(seconds + increment per move)</text>']
    top = y + 30
    bottom = top + ROW * len(rows)
    for elo in range(-int(LIMIT), int(LIMIT) + 1, 200):
        x = _x(elo)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{bottom}" '
                   f'class="{"zero" if elo == 0 else "grid"}"/>')
        out.append(f'<text x="{x:.1f}" y="{bottom + 14}" class="tick">{elo:+d}</text>'
                   if elo else f'<text x="{x:.1f}" y="{bottom + 14}" class="tick">0</text>')
    for i, (game, opponent, elo, low, high) in enumerate(rows):
        cy = top + ROW * i + ROW / 2
        colour = _colour(opponent)
        out.append(f'<text x="{LABEL - 8}" y="{cy + 4}" class="label">{escape(game)} · '
                   f'{escape(opponent)}</text>')
        out.append(f'<line x1="{_x(low):.1f}" y1="{cy}" x2="{_x(high):.1f}" y2="{cy}" '
                   f'stroke="{colour}" stroke-width="3"/>')
        for end, direction in ((low, -1), (high, 1)):
            if math.isinf(end) or abs(end) > LIMIT:  # the interval goes on past the plot
                tip = _x(end)
                out.append(f'<path d="M{tip:.1f},{cy} l{-6 * direction},-5 l0,10 z" '
                           f'fill="{colour}"/>')
        out.append(f'<circle cx="{_x(elo):.1f}" cy="{cy}" r="5" fill="{colour}"/>')
        out.append(f'<text x="{WIDTH + 10}" y="{cy + 4}" class="value">'
                   f'{"+inf" if elo == math.inf else "-inf" if elo == -math.inf else f"{elo:+.0f}"}'
                   '</text>')
    return out, bottom + 14 + PANEL_GAP


def svg(panels) -> str:
    body, y = [], 56.0  # below the title and the legend's line
    for tc, rows in panels:
        if rows:
            elements, y = _panel(y, tc, rows)
            body += elements
    height = int(y - PANEL_GAP + 16)
    legend = [f'<text x="10" y="24" class="head">Leyden\'s Elo against each opponent, '
              'with the 95% interval</text>']
    x = 15  # a line of its own: beside the title it ran into it
    for name, colour in [*COLOURS.items(), ("itself (at odds, or an earlier commit)", SELF)]:
        legend.append(f'<circle cx="{x}" cy="40" r="5" fill="{colour}"/>'
                      f'<text x="{x + 9}" y="44" class="legend">{escape(name)}</text>')
        x += 16 + 7.2 * len(name)
    style = ("text{font-family:DejaVu Sans,Verdana,sans-serif;fill:#222}"
             ".head{font-size:15px;font-weight:bold}.title{font-size:13px;font-weight:bold}"
             ".label{font-size:12px;text-anchor:end}.value{font-size:11px;text-anchor:end}"
             ".tick{font-size:10px;text-anchor:middle;fill:#555}.legend{font-size:11px}"
             ".grid{stroke:#ddd;stroke-width:1}.zero{stroke:#666;stroke-width:1.5}")
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH + 50}" height="{height}" '
        f'viewBox="0 0 {WIDTH + 50} {height}">',
        f"<style>{style}</style>",
        f'<rect width="{WIDTH + 50}" height="{height}" fill="white"/>',
        *legend, *body, "</svg>", ""])
