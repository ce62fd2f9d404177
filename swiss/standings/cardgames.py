"""Card-game tiebreaks: Magic's MW% / OMW% / GW% / OGW% and Pokemon's resistance.

Magic: The Gathering Tournament Rules, appendix C:

* MW% = match points / (win points x rounds the player took part in), at least 33 %.
  Byes are match wins; rounds missed after dropping (absent, zero-point byes) do not count.
* GW% = game points / (3 x games played), at least 33 %; a game win is 3 game points.
  ``Game.white_games`` / ``black_games`` give the games when recorded. **Without game scores**
  we count a match win (played, forfeit or bye) as won 2-0, a loss as lost 0-2 and a drawn
  match as 1-1 (50 %); a round without a match counts no game.
* OMW% / OGW% = the average of the opponents' MW% / GW% (each with its floor). Byes have no
  opponent; forfeited matches do count the opponent (a no-show is still a match in MTR).
  A player without any opponent gets the floor.

Pokemon (Play! Pokemon tournament rules): *resistance* (OWP) is the average of the opponents'
win percentages, each at least 25 %; OOWP is the average of the opponents' OWP. We take a
player's win percentage as match points / (win points x rounds taken part in), i.e. MW% with a
25 % floor, so ties count as a third of a win under 3/1/0 scoring.

Percentages are exact fractions of 1 (0.5 is 50 %).
"""

from __future__ import annotations

from fractions import Fraction

from swiss.standings.context import Context, TiebreakSpec, Worked, fmt
from swiss.standings.records import PlayerRecord, RoundKind, RoundRecord

MTG_FLOOR = Fraction(33, 100)
POKEMON_FLOOR = Fraction(1, 4)
GAME_POINTS_PER_WIN = 3

_NOT_TAKEN_PART = (RoundKind.ABSENT, RoundKind.ZERO_BYE, RoundKind.PENDING)
_MATCH_WINS = (RoundKind.WIN, RoundKind.FORFEIT_WIN, RoundKind.PAIRING_BYE, RoundKind.FULL_BYE)
_MATCH_LOSSES = (RoundKind.LOSS, RoundKind.FORFEIT_LOSS)


def _win_fraction(ctx: Context, record: PlayerRecord, floor: Fraction) -> Fraction:
    rounds = [c for c in record.rounds if c.kind not in _NOT_TAKEN_PART]
    possible = ctx.scoring.win * len(rounds)
    if possible <= 0:
        return floor
    points = sum((c.points for c in rounds), Fraction(0))
    return max(floor, points / possible)


def _games(cell: RoundRecord) -> tuple[int, int]:
    """(games won, games lost) in one round; see the module rule without game scores."""
    if cell.kind in _NOT_TAKEN_PART:
        return 0, 0
    if cell.games_won is not None and cell.games_lost is not None:
        return cell.games_won, cell.games_lost
    if cell.kind in _MATCH_WINS:
        return 2, 0
    if cell.kind in _MATCH_LOSSES:
        return 0, 2
    return 1, 1  # drawn match or half-point bye


def _game_fraction(record: PlayerRecord) -> Fraction:
    won = lost = 0
    for cell in record.rounds:
        w, lo = _games(cell)
        won += w
        lost += lo
    if won + lost == 0:
        return MTG_FLOOR
    return max(MTG_FLOOR, Fraction(won, won + lost))


def _opponents(record: PlayerRecord) -> list[int]:
    return [
        c.opponent
        for c in record.rounds
        if c.opponent is not None and c.kind is not RoundKind.PENDING
    ]


def _own(ctx: Context, values: dict[int, Fraction], what: str) -> dict[int, Worked]:
    return {
        pid: Worked(value, f"{what} = {fmt(value)}" if ctx.explain else "")
        for pid, value in values.items()
    }


def _average_of_opponents(
    ctx: Context, values: dict[int, Fraction], floor: Fraction, what: str
) -> dict[int, Worked]:
    result: dict[int, Worked] = {}
    for pid, record in ctx.records.items():
        opponents = _opponents(record)
        if opponents:
            value = sum((values[o] for o in opponents), Fraction(0)) / len(opponents)
        else:
            value = floor
        text = ""
        if ctx.explain:
            listed = "; ".join(f"{ctx.label(o)} {fmt(values[o])}" for o in opponents)
            text = f"average of opponents' {what}: {listed or 'no opponents (floor)'}"
            text += f" = {fmt(value)}"
        result[pid] = Worked(value, text)
    return result


def _match_win_table(ctx: Context, floor: Fraction) -> dict[int, Fraction]:
    return {pid: _win_fraction(ctx, rec, floor) for pid, rec in ctx.records.items()}


def match_win(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """MW%: the player's own match-win percentage (33 % floor)."""
    return _own(ctx, _match_win_table(ctx, MTG_FLOOR), "match points / possible")


def opponents_match_win(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """OMW%: average of the opponents' MW%."""
    return _average_of_opponents(ctx, _match_win_table(ctx, MTG_FLOOR), MTG_FLOOR, "MW%")


def game_win(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """GW%: the player's own game-win percentage (33 % floor)."""
    table = {pid: _game_fraction(rec) for pid, rec in ctx.records.items()}
    return _own(ctx, table, "games won / games played")


def opponents_game_win(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """OGW%: average of the opponents' GW%."""
    table = {pid: _game_fraction(rec) for pid, rec in ctx.records.items()}
    return _average_of_opponents(ctx, table, MTG_FLOOR, "GW%")


def resistance(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """OWP: Pokemon resistance, the opponents' average win percentage (25 % floor)."""
    table = _match_win_table(ctx, POKEMON_FLOOR)
    return _average_of_opponents(ctx, table, POKEMON_FLOOR, "win %")


def resistance2(ctx: Context, spec: TiebreakSpec) -> dict[int, Worked]:
    """OOWP: average of the opponents' resistance."""
    first = resistance(ctx.without_explanations(), spec)
    table = {pid: worked.value for pid, worked in first.items()}
    return _average_of_opponents(ctx, table, POKEMON_FLOOR, "OWP")
