"""Team events on Discord: the pairings post (a match per line, then its boards), the
standings post (match points, game points, tie-breaks), a team's roster and a lineup.

The announcements are rendered from their JSON payload (``service.team_rounds``); the
command replies build the same payload from the views, so both look alike. Member names are
mentions (they render as names and ping nobody inside an embed); a forgotten member, whose
id is gone, shows his pseudonym.
"""

from __future__ import annotations

from typing import Any

from bot.render.format import code_safe, plain
from bot.render.message import Outgoing
from bot.render.paginate import Line, paginate
from bot.render.tournament import INFO_COLOUR, PAIRINGS_COLOUR, STANDINGS_COLOUR
from i18n import _
from service.team_views import LineupView, MemberView, TeamStandingsView, TeamView

BOARD_RESULTS = {"*": "–", "1-0": "1-0", "0-1": "0-1", "1/2": "½-½", "+-": "+ −",
                 "-+": "− +", "--": "− −"}


def who(member: dict[str, Any] | MemberView | None) -> str:
    """A member as shown: his mention, or his (pseudonymous) name once forgotten."""
    if member is None:
        return _("*nobody (forfeit)*")
    user_id, name = ((member["user_id"], member["name"]) if isinstance(member, dict)
                     else (member.user_id, member.name))
    return f"<@{user_id}>" if user_id > 0 else plain(str(name), 60)


def pairings(name: str, payload: dict[str, Any], *, ping: bool = True) -> list[Outgoing]:
    """A round's matches: the two teams (board 1's White first), then each board."""
    number = int(payload.get("number", 0))
    esports = payload.get("system") == "esports-swiss"
    lines: list[Line] = []
    for match in payload.get("matches", []):
        first = plain(str(match.get("white", "")), 48)
        if match.get("black") is None:
            lines.append(Line(_("**{team}** has the bye", team=first)))
            continue
        second = plain(str(match["black"]), 48)
        score = match.get("score")
        shown = f" **{score[0]} – {score[1]}**" if score else " " + _("vs")
        best_of = _(" (best of {best_of})", best_of=match["best_of"]) if esports else ""
        forfeit = _(" (forfeit)") if match.get("forfeit") else ""
        lines.append(Line(f"**{match['number']}.** **{first}**{shown} **{second}**"
                          f"{best_of}{forfeit}"))
        users: list[int] = []
        for board in match.get("boards", []):
            players = [board.get("white"), board.get("black")]
            users += [p["user_id"] for p in players if p and p["user_id"] > 0]
            lines.append(Line("  " + _("board {board}: {white} {result} {black}",
                                       board=board["board"], white=who(players[0]),
                                       result=BOARD_RESULTS.get(board.get("result", "*"), "–"),
                                       black=who(players[1]))))
        if esports:
            for side, lineup in zip((first, second), match.get("lineups") or [[], []],
                                    strict=False):
                if lineup:
                    users += [p["user_id"] for p in lineup if p and p["user_id"] > 0]
                    lines.append(Line(f"  {side}: " + ", ".join(who(p) for p in lineup)))
        if ping and users:
            lines[-1] = Line(lines[-1].text, tuple(users))
    return paginate(_("{tournament} · round {round}", tournament=plain(name, 80),
                      round=number), lines, colour=PAIRINGS_COLOUR,
                    intro="" if lines else _("No matches."))


def standings(name: str, payload: dict[str, Any]) -> list[Outgoing]:
    """The table after a round: rank, team, match points (e-sports: wins and losses), game
    points and the tie-breaks, in a code block."""
    esports = payload.get("system") == "esports-swiss"
    tiebreaks = [str(t) for t in payload.get("tiebreaks", [])]
    header = (f"{'#':>3} {'Team':<24} {'W':>3} {'L':>3} {'Diff':>5}" if esports else
              f"{'#':>3} {'Team':<24} {'MP':>4} {'GP':>5} " +
              " ".join(f"{code_safe(t, 6)}" for t in tiebreaks[:4]))
    lines = []
    for row in payload.get("rows", []):
        values = [str(v) for v in row.get("tiebreaks", [])]
        team = code_safe(str(row.get("name", "")), 24)
        status = {"advanced": " ✔", "eliminated": " ✘", "withdrawn": " " + _("(withdrawn)")
                  }.get(str(row.get("status")), "")
        if esports:
            text = (f"{row['rank']:>3} {team} {row['mp']:>3} {values[0]:>3} "
                    f"{values[1]:>5}{status}")
        else:
            text = (f"{row['rank']:>3} {team} {row['mp']:>4} {row['gp']:>5} " +
                    " ".join(code_safe(v, 6) for v in values[:4]) + status)
        lines.append(Line(text))
    final = bool(payload.get("final"))
    shown, after = plain(name, 80), int(payload.get("round", 0))
    title = (_("{tournament} · final standings after round {round}", tournament=shown,
               round=after) if final else
             _("{tournament} · standings after round {round}", tournament=shown, round=after))
    return paginate(title, lines, colour=STANDINGS_COLOUR, header=header, code_block=True)


def standings_payload(view: TeamStandingsView) -> dict[str, Any]:
    return {"round": view.after_round, "system": view.system, "final": False,
            "tiebreaks": list(view.tiebreak_names),
            "rows": [{"rank": r.rank, "name": r.name, "mp": str(r.match_points),
                      "gp": str(r.game_points), "tiebreaks": [str(v) for v in r.tiebreaks],
                      "status": r.status} for r in view.rows]}


def team_card(team: TeamView) -> list[Outgoing]:
    """A team's roster in board order, the captain marked, substitutes last."""
    def row(m: MemberView) -> Line:
        captain = " " + _("(captain)") if m.user_id == team.captain_user_id else ""
        substitute = " · " + _("substitute") if m.substitute else ""
        return Line(f"{m.position}. {who(m)}{captain}{substitute}")

    lines = [row(m) for m in team.members]
    state = _("withdrawn") if team.status == "withdrawn" else \
        _("checked in") if team.checked_in else _("not checked in")
    return paginate(_("{team} · team {number} of {tournament}", team=plain(team.name, 60),
                      number=team.number, tournament=plain(team.tournament_name, 60)),
                    lines, colour=INFO_COLOUR,
                    footer=_("{state} · roster version {version}", state=state,
                             version=team.version))


def lineup_text(view: LineupView) -> str:
    boards = ", ".join(_("board {board}: {player}", board=i, player=who(m))
                       for i, m in enumerate(view.boards, start=1))
    late = _(" (set after the pairing, by an organiser)") if view.late else ""
    return _("📋 Lineup {version} of **{team}** for round {round}{late}: {boards}. The last "
             "lineup set before the round is paired stands.", version=view.version,
             team=plain(view.team, 60), round=view.round_number, late=late, boards=boards)
