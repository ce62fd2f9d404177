"""The live page's HTML, rendered on the server: the whole page reads without JavaScript.

Standings, one round's pairings with a picker linking to every round (``?round=N``, plain
links), and the crosstable. The page's script only refreshes it: it fetches the same URL and
swaps the server's HTML in, so there is one renderer. Every user text goes through
:func:`html.escape`; tables sit in scrolling containers, so on a phone a wide table scrolls
sideways inside its box and the page itself never does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from bot.standings_columns import DECIDER, deciders, legend, table_cells
from i18n import _
from service import LiveEventView, RoundView, format_points
from swiss.wording import plural

#: Seconds between two refreshes by the page's script.
POLL_SECONDS = 5

_RESULT = {"*": "…", "1/2-1/2": "½-½", "+--": "+ −", "--+": "− +", "---": "− −"}
_STATUS = {"registration": "registration open", "running": "running",
           "finished": "finished", "cancelled": "cancelled"}


def result_text(result: str) -> str:
    """A stored result as the page shows it (``1/2-1/2`` as ``½-½``)."""
    return _RESULT.get(result, result)


def selected_round(event: LiveEventView, asked: str | None) -> RoundView | None:
    """The round whose pairings the page shows: the one asked for by ``?round=N`` when it
    exists, else the latest (a mistyped or stale number shows the latest, not an error)."""
    if not event.rounds:
        return None
    if asked is not None and asked.isascii() and asked.isdigit() and len(asked) < 6:
        for rnd in event.rounds:
            if rnd.number == int(asked):
                return rnd
    return event.rounds[-1]


def page_html(event: LiveEventView, shown: RoundView | None) -> str:
    name = escape(event.info.name)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{name} · swissbot</title>
<link rel="stylesheet" href="/static/live.css">
<script src="/static/live.js" defer></script>
</head>
<body data-poll="{POLL_SECONDS}">
<header id="head"><h1 id="title">{name}</h1><p id="state">{escape(_state(event))}</p></header>
<main id="live">
{_standings(event)}
{_pairings(event, shown)}
{_crosstable(event)}
</main>
<footer>Read-only page; it refreshes itself every few seconds (reload it without
JavaScript) · swissbot</footer>
</body>
</html>
"""


def _state(event: LiveEventView) -> str:
    info = event.info
    status = _STATUS.get(info.status, info.status)
    return (f"{status} · round {info.current_round} of {info.settings.rounds} · "
            f"{plural(info.players, 'player')}")


def _cells(values: Iterable[str], tag: str = "td") -> str:
    return "".join(f"<{tag}>{escape(v)}</{tag}>" for v in values)


def _table(table_id: str, head: Sequence[str], rows: Iterable[str], caption: str) -> str:
    body = "\n".join(rows)
    return (f'<div class="scroll" tabindex="0" role="region" aria-label="{escape(caption)}">'
            f'<table id="{table_id}"><thead><tr>{_cells(head, "th")}</tr></thead>\n'
            f"<tbody>\n{body}\n</tbody></table></div>")


def _row(cells: str, muted: bool, cls: str = "withdrawn") -> str:
    return f'<tr class="{cls}">{cells}</tr>' if muted else f"<tr>{cells}</tr>"


def _standings(event: LiveEventView) -> str:
    s = event.standings
    if s is None:
        return ('<section id="standings-section"><h2>Standings</h2>'
                + _table("standings", ["#", "Player", "Pts"], [], "Standings")
                + '<p class="note">No players yet.</p></section>')
    when = (_("final") if s.final else
            _("with round {round} of {rounds} in play", round=s.after_round,
              rounds=s.total_rounds) if s.in_play else
            _("after round {round} of {rounds}", round=s.after_round, rounds=s.total_rounds))
    # one number format per column, "–" where a cut leaves nothing, the deciding tiebreak of
    # a tie marked as in Discord's tables
    names, cells = table_cells(s)
    decided = deciders(s, cells)
    rows = [_row(_cells([str(r.rank), r.name + (" (withdrawn)" if r.withdrawn else ""),
                         format_points(r.points),
                         *(cell + DECIDER if decided.get(i) == column else cell
                           for column, cell in enumerate(cells[i]))]),
                 r.withdrawn) for i, r in enumerate(s.rows)]
    notes = "".join(f'<p class="legend">{escape(note)}</p>'
                    for note in legend(s, names, bool(decided)))
    return (f'<section id="standings-section"><h2>Standings <small>{escape(when)}</small></h2>'
            + _table("standings", ["#", "Player", "Pts", *s.tiebreaks], rows, "Standings")
            + notes + "</section>")


def _picker(event: LiveEventView, shown: RoundView) -> str:
    links = []
    for rnd in event.rounds:
        label = escape(rnd.stage) if rnd.stage else str(rnd.number)
        if rnd.number == shown.number:
            links.append(f'<a aria-current="page" href="?round={rnd.number}#pairings-section">'
                         f"{label}</a>")
        else:
            links.append(f'<a href="?round={rnd.number}#pairings-section">{label}</a>')
    return f'<nav class="rounds" aria-label="Rounds">Round: {" ".join(links)}</nav>'


def _pairings(event: LiveEventView, shown: RoundView | None) -> str:
    colours = event.info.settings.colours
    head = ["Board", "White" if colours else "Player", "Result", "Black" if colours else "Player"]
    if shown is None:
        return ('<section id="pairings-section"><h2 id="round-title">Pairings</h2>'
                + _table("pairings", head, [], "Pairings")
                + '<p class="note">No round has been paired yet.</p></section>')
    title = f"Round {shown.number}" + (f" · {shown.stage}" if shown.stage else "")
    title += " (complete)" if shown.state == "complete" else ""
    rows = [_row(_cells([str(g.board), _seat(g.white.name, g.white.number)])
                 + _result_cell(result_text(g.result), event.game_urls.get(g.id))
                 + _cells([_seat(g.black.name, g.black.number)]),
                 g.state != "final", "pending") for g in shown.games]
    byes = ", ".join(f"{_seat(b.player.name, b.player.number)} ({format_points(b.points)})"
                     for b in shown.byes)
    return (f'<section id="pairings-section"><h2 id="round-title">{escape(title)}</h2>'
            + _picker(event, shown)
            + _table("pairings", head, rows, f"Pairings of round {shown.number}")
            + f'<p id="byes">{escape("Byes: " + byes) if byes else ""}</p></section>')


def _result_cell(result: str, url: str | None) -> str:
    """The result, linking to the game's page when it is played on Lichess."""
    if url is None or not url.startswith("https://"):
        return _cells([result])
    return f'<td><a href="{escape(url)}" rel="noopener">{escape(result)}</a></td>'


def _seat(name: str, number: int) -> str:
    return f"{name} (#{number})"


def _crosstable(event: LiveEventView) -> str:
    c = event.crosstable
    if c is None:
        return ('<section id="crosstable-section"><h2>Crosstable</h2>'
                + _table("crosstable", ["Rk", "Player", "Pts"], [], "Crosstable")
                + '<p id="crosstable-legend" class="legend"></p></section>')
    names = {r.number: r.name for r in c.rows}
    head = ["Rk", "Player", *(f"R{i}" for i in range(1, c.after_round + 1)), "Pts"]
    rows = []
    for r in c.rows:
        # the row names the start number ("#7 Ann") that the other rows' cells use; a cell's
        # tooltip names the opponent too
        cells = "".join(_cross_cell(cell, names) for cell in r.cells)
        player = f"#{r.number} {r.name}" + (" (withdrawn)" if r.withdrawn else "")
        rows.append(_row(f"{_cells([str(r.rank), player])}{cells}"
                         f"{_cells([format_points(r.points)])}", r.withdrawn))
    return ('<section id="crosstable-section"><h2>Crosstable</h2>'
            + _table("crosstable", head, rows, "Crosstable")
            + f'<p id="crosstable-legend" class="legend">{escape(c.legend)}</p></section>')


def _cross_cell(cell: str, names: dict[int, str]) -> str:
    digits = cell[: len(cell) - len(cell.lstrip("0123456789"))]
    opponent = names.get(int(digits)) if digits else None
    if opponent is None:
        return f"<td>{escape(cell)}</td>"
    return f'<td title="{escape(f"#{digits} {opponent}")}">{escape(cell)}</td>'
