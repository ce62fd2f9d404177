"""``swissbot pair --system fide-team|esports-swiss``: pair the next round of a team event.

The file is a TRF with team records (``013``: the team's name, then its members' starting
ranks) and the players' games in ``001`` records; the ``192`` record names the FIDE team
variant (``FIDE_TEAM_TYPEB_GP_MP`` and so on). The output is bbpPairings' format with team
pairing numbers: the number of matches, then ``WHITE BLACK`` per match (the first team has
White on board 1 and the odd boards), the pairing-allocated bye as ``TPN 0`` last. For
``esports-swiss`` each line is ``HIGHER LOWER BEST-OF`` (ranks by the rulebook's seed order)
and the seeds are the teams' pairing numbers; ``--wins N`` sets the wins that advance a
team and the losses that eliminate it (3 by default).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from cli.exit_codes import EXIT_INVALID_INPUT, EXIT_NO_PAIRING, EXIT_OK
from cli.trf_file import UnreadableFile, read_trf_text, write_output
from swiss.pairing.types import PairingError
from swiss.trf import TrfError

if TYPE_CHECKING:
    from swiss.teams.esports import StageRules
    from swiss.teams.trf import TeamEvent

# The team engines are imported by the functions that run them: `swissbot pair` of a player
# event imports this module only for TEAM_SYSTEMS, and should not pay for them.

TEAM_SYSTEMS = ("fide-team", "esports-swiss")
#: ``--wins`` (the rulebook's three wins to advance, three losses to go out) and its bound
DEFAULT_WINS = 3
MAX_WINS = 99


def run_team_system(args: argparse.Namespace) -> int:
    """Pair the next round of the team event in ``args.file``; the exit code says how."""
    from swiss.teams.esports import StageRules
    from swiss.teams.trf import parse_team_trf

    try:
        event = parse_team_trf(read_trf_text(args.file))
        if event.total_rounds and event.rounds_played >= event.total_rounds:
            raise TrfError(f"all {event.total_rounds} rounds have been played (XXR "
                           f"{event.total_rounds}); there is no round to pair")
        if args.system == "fide-team":
            text = _pair_fide_team(event)
        else:
            wins = DEFAULT_WINS if args.wins is None else args.wins
            text = _pair_esports(event, StageRules(wins_to_advance=wins,
                                                   losses_to_eliminate=wins))
    except UnreadableFile as exc:
        print(f"swissbot pair: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    except (TrfError, ValueError) as exc:
        if isinstance(exc, PairingError):
            print(f"swissbot pair: no valid pairing: {exc}", file=sys.stderr)
            return EXIT_NO_PAIRING
        print(f"swissbot pair: {args.file}: {exc}", file=sys.stderr)
        return EXIT_INVALID_INPUT
    if not write_output("pair", args.output, text):
        return EXIT_INVALID_INPUT
    return EXIT_OK


def _pair_fide_team(event: TeamEvent) -> str:
    from swiss.teams.fide_team import pair_fide_team

    pairing = pair_fide_team(event.teams, event.rules, event.rounds_played + 1,
                             event.total_rounds)
    lines = [str(len(pairing.pairs))]
    lines += [f"{pair.white} {pair.black}" for pair in pairing.pairs]
    if pairing.bye is not None:
        lines.append(f"{pairing.bye} 0")
    return "\n".join(lines) + "\n"


def _pair_esports(event: TeamEvent, rules: StageRules) -> str:
    from swiss.teams.esports import StageMatch, pair_stage
    from swiss.teams.model import MatchKind

    results = []
    for team in event.teams:
        for match in team.history:
            if match.opponent is None or match.opponent < team.tpn:
                continue  # each match once, from its lower pairing number
            if match.kind in (MatchKind.PLAYED, MatchKind.FORFEIT_WIN, MatchKind.FORFEIT_LOSS):
                won = match.match_points > 1
                lost = match.match_points < 1
                if not (won or lost):
                    raise TrfError(f"round {match.round}: teams {team.tpn} and "
                                   f"{match.opponent} drew; an e-sports match has a winner")
                winner, loser = (team.tpn, match.opponent) if won else (match.opponent,
                                                                        team.tpn)
                results.append(StageMatch(match.round, winner, loser))
    seeds = [team.tpn for team in event.teams]
    pairing = pair_stage(seeds, results, event.rounds_played + 1, rules)
    lines = [str(len(pairing.matches))]
    lines += [f"{a} {b} {best_of}" for a, b, best_of in pairing.matches]
    return "\n".join(lines) + "\n"
