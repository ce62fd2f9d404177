"""Explanations for players: ``/why`` (why this opponent, colour or bye) and ``/tiebreak``
(how each tiebreak value was computed).

``/why`` reads the facts the engine worked on, which :func:`pairing_facts` records in the
pairing's own transaction (migration 0005): the engine's explanation of every pair (the
components ``swissbot pair --explain`` prints) plus each player's score, colour difference,
unplayed wins and rank before the round. Later corrections of earlier results therefore do not
change why a round was paired as it was. Rounds paired before the table existed are recomputed
from the rounds before them with the stored seed, and explained only if that reproduces the
stored pairing exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from service.base import Context, PlayerRef, TournamentRef, find_player, find_tournament, part, seat
from service.errors import ConflictError, NotOrganiserError, UnknownRoundError
from service.model import Snapshot, load_snapshot, pairing_config, settings_of
from service.operation import operation
from service.present import format_value
from service.views import Actor, Seat, format_points
from storage import extras as extras_repo
from storage import players as player_repo
from storage import rounds as round_repo
from storage.players import PlayerRow
from storage.tournaments import TournamentRow
from swiss.model import ByeKind, Color, Tournament
from swiss.pairing import PairingConfig, PairingError, PairingResult, pair_round
from swiss.state import PlayerState, player_states

FACTS_VERSION = 1
# TCEC colour rule codes (swiss.pairing.tcec's colour_rule component), in words for players.
_TCEC_COLOUR_RULES = {
    1: "the player with the greater white game difference (whites minus blacks) gets black",
    2: "your white game differences were equal: the higher score gets black",
    3: "your white game differences and scores were equal: colours follow the 2112 pattern",
    4: "in a double round the first-of-pair has black in the first game, white in the second",
}

# FIDE Dutch colour allocation rules (swiss.pairing.fide_dutch.explain's colour rule), in words.
_FIDE_COLOUR_RULES = {
    1: "both of your colour preferences could be granted (FIDE Dutch colour rule E.1)",
    2: "you wanted the same colour and the stronger preference was granted (E.2)",
    3: "you wanted the same colour with equal strength, so colours alternate from the last "
       "round in which you two had different colours (E.3)",
    4: "you had the same colour history, so the higher-ranked player's preference was "
       "granted (E.4)",
    5: "neither of you had a colour preference: the higher-ranked player gets the initial "
       "colour if his pairing number among the players taking part is odd (E.5)",
}


@dataclass(frozen=True, slots=True)
class WhyView:
    """Why one player got this opponent, colour or bye in one round, in sentences."""

    tournament_id: int
    tournament_name: str
    round: int
    player: Seat
    opponent: Seat | None  # None: a bye
    colour: str | None  # "white" / "black"; None for a bye or an event without colours
    bye_kind: str | None
    reasons: tuple[tuple[str, str], ...]  # (heading, sentence)
    engine: str  # the engine's raw components, as ``swissbot pair --explain`` prints them


@dataclass(frozen=True, slots=True)
class TiebreakLine:
    acronym: str
    value: str
    text: str
    article: str


@dataclass(frozen=True, slots=True)
class TiebreakView:
    tournament_id: int
    tournament_name: str
    player: Seat
    after_round: int
    points: Fraction
    rank: int
    edition: str
    unplayed_rule: str
    lines: tuple[TiebreakLine, ...]


# -- recording --------------------------------------------------------------------------------
def _colour_rule(hi: PlayerState, lo: PlayerState, white: int) -> str:
    """Which rule of swiss.pairing.mwm._assign_colors gave these colours (``hi`` ranks
    higher). Mirrors it step by step: the same order of checks."""
    if hi.color_diff != lo.color_diff:
        return "difference"
    for c_hi, c_lo in zip(reversed(hi.colors), reversed(lo.colors), strict=False):
        if c_hi is not Color.NONE and c_lo is not Color.NONE and c_hi is not c_lo:
            return "alternate"
    if hi.due_color() is not None:
        return "due_higher"
    if lo.due_color() is not None:
        return "due_lower"
    return "initial"


def pairing_facts(model: Tournament, result: PairingResult, system: str,
                  beta: Fraction = Fraction(2)) -> dict[str, Any]:
    """What ``/why`` needs about round ``result.round_number``, as JSON-ready data, from the
    model *before* that round and the engine's result."""
    number = result.round_number
    states = player_states(model)
    requested = model.requested_byes.get(number, {})
    pairable = [p for p in model.players
                if model.is_active(p.id, number) and p.id not in requested]
    ordered = sorted(pairable, key=lambda p: (-states[p.id].score, p.seed, p.id))
    rank = {p.id: i for i, p in enumerate(ordered)}
    in_round = {pid for g in result.games for pid in (g.white, g.black)}
    in_round |= {b.player for b in result.byes}
    players: dict[str, Any] = {}
    for pid in sorted(in_round):
        st = states[pid]
        due = st.due_color()
        players[str(pid)] = {
            "score": str(st.score),
            "colour_diff": st.color_diff,
            "due": None if due is None else due.name.lower(),
            "unplayed_wins": st.unplayed_wins,
            "rank": rank.get(pid),
            "met": {str(o): n for o, n in st.opponents.items()},
        }
    explanation = {exp.white: exp for exp in result.explanations}
    explanation |= {exp.black: exp for exp in result.explanations if exp.black is not None}
    games = []
    for g in result.games:
        exp = explanation.get(g.white)
        rule = None
        if model.use_colors:
            if system == "tcec":
                rule = "tcec:" + str(dict(exp.components).get("colour_rule", 0)) if exp else None
            elif system == "fide-dutch":
                rule = "fide:" + str(dict(exp.components).get("colour rule", 0)) if exp else None
            else:
                hi, lo = sorted((g.white, g.black), key=lambda p: rank.get(p, 0))
                rule = _colour_rule(states[hi], states[lo], g.white)
        games.append({
            "board": g.board, "white": g.white, "black": g.black, "colour_rule": rule,
            "components": [] if exp is None else [list(c) for c in exp.components],
        })
    byes = []
    for b in result.byes:
        exp = explanation.get(b.player) if b.kind is ByeKind.PAIRING else None
        byes.append({
            "player": b.player, "kind": b.kind.value,
            "components": [] if exp is None else [list(c) for c in exp.components],
        })
    scores = {str(p.id): str(states[p.id].score) for p in pairable}
    return {
        "version": FACTS_VERSION, "round": number, "system": system,
        "colours": model.use_colors, "bound": str(beta * 2), "players": players,
        "pairable": scores, "forbidden": sorted(sorted(pair) for pair in model.forbidden_pairs),
        "games": games, "byes": byes,
    }


StoredRound = tuple[set[tuple[int, int]], set[tuple[int, str]]]  # (white, black), (id, kind)


def recompute_facts(model: Tournament, number: int, config: PairingConfig,
                    stored: StoredRound) -> dict[str, Any] | None:
    """Facts for a round paired before they were recorded: pair it again from the rounds
    before it with the stored seed; ``None`` unless that gives the stored games and byes."""
    before = replace(model, rounds=tuple(r for r in model.rounds if r.number < number))
    try:
        result = pair_round(before, config)
    except (PairingError, ValueError):
        return None
    games = {(g.white, g.black) for g in result.games}
    byes = {(b.player, b.kind.value) for b in result.byes}
    if (games, byes) != stored:
        return None
    return pairing_facts(before, result, config.system, config.beta)


# -- phrasing ---------------------------------------------------------------------------------
def _pts(text: str) -> str:
    value = Fraction(text)
    return f"{format_points(value)} point{'' if value == 1 else 's'}"


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _engine_line(components: list[list[Any]]) -> str:
    return ", ".join(f"{name}={value}" for name, value in components) or "no components"


@part
class Explain:
    ctx: Context

    @operation
    async def why(
        self,
        actor: Actor,
        round_number: int | None = None,
        *,
        player: PlayerRef | None = None,
        tournament: TournamentRef = None,
    ) -> WhyView:
        """Why ``actor`` (or, for organisers, ``player``) got this opponent, colour or bye in
        ``round_number`` (default: the latest round). Read-only."""
        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            row = await self._who(conn, actor, t, player, "see why another player was paired")
            rnd = (await round_repo.last_round(conn, t.id) if round_number is None
                   else await round_repo.get_round(conn, t.id, round_number))
            if rnd is None:
                raise UnknownRoundError(
                    f"'{t.name}' has no round {round_number or ''} yet.".replace("  ", " ")
                    if round_number else f"'{t.name}' has no rounds yet."
                )
            snapshot = await load_snapshot(conn, t)
            facts = await extras_repo.get_explanation(conn, rnd.id)
            if facts is None:
                facts = _recompute(t, snapshot, rnd.number)
            if facts is None:
                raise ConflictError(
                    f"Round {rnd.number} of '{t.name}' was paired before swissbot recorded "
                    "its reasons, and pairing it again does not give the same boards (results "
                    "or players changed since), so I cannot explain it."
                )
            return _why_view(t, snapshot, facts, row)

    @operation
    async def tiebreak_explanation(
        self,
        actor: Actor,
        player: PlayerRef | None = None,
        *,
        tournament: TournamentRef = None,
    ) -> TiebreakView:
        """How each tiebreak value of ``actor`` (or ``player``: tiebreaks are public, like the
        standings) was computed, after the rounds played so far."""
        from swiss.standings import compute_standings, explain_player

        async with self.ctx.db.transaction(readonly=True) as conn:
            t = await find_tournament(conn, actor.guild_id, tournament, closed_ok=True)
            row = (await find_player(conn, t, player) if player is not None
                   else await self._who(conn, actor, t, None, ""))
            if row.number is None:
                raise ConflictError(f"{row.name} has no tiebreaks: '{t.name}' has not started "
                                    "for them yet.")
            snapshot = await load_snapshot(conn, t)
        settings = settings_of(t)
        model = snapshot.tournament
        rules = None if settings.tiebreak_rules == "auto" else settings.tiebreak_rules
        start = t.created_at.date()
        table = compute_standings(model, settings.tiebreaks, rules=rules, start_date=start)
        mine = next((r for r in table.rows if r.player_id == row.number), None)
        if mine is None:
            raise ConflictError(f"{row.name} is not in the standings of '{t.name}'.")
        items = explain_player(model, row.number, settings.tiebreaks, rules=rules,
                               start_date=start)
        lines = tuple(TiebreakLine(e.acronym, format_value(e.value), e.text, e.article)
                      for e in items)
        return TiebreakView(
            tournament_id=t.id, tournament_name=t.name, player=seat(row),
            after_round=model.rounds_played, points=mine.points, rank=mine.rank,
            edition=table.edition, unplayed_rule="C.07 art. 16 (unplayed rounds)",
            lines=lines,
        )

    async def _who(self, conn: Any, actor: Actor, t: TournamentRow,
                   player: PlayerRef | None, doing: str) -> PlayerRow:
        """The player asked about: the actor himself, or (organisers only) ``player``."""
        if player is not None:
            if not actor.is_organiser:
                raise NotOrganiserError(f"Only organisers can {doing}: ask without the "
                                        "player option to see your own.")
            return await find_player(conn, t, player)
        row = await player_repo.find_member(conn, t.id, actor.user_id)
        if row is None:
            from service.errors import NotRegisteredError

            raise NotRegisteredError(f"You are not a player of '{t.name}'.")
        return row


def _recompute(t: TournamentRow, snapshot: Snapshot, number: int) -> dict[str, Any] | None:
    model = snapshot.tournament
    rnd = next((r for r in model.rounds if r.number == number), None)
    if rnd is None:
        return None
    stored = ({(g.white, g.black) for g in rnd.games}, {(b.player, b.kind.value) for b in rnd.byes})
    config = pairing_config(t)
    return recompute_facts(model, number, config, stored)


def _why_view(t: TournamentRow, snapshot: Snapshot, facts: dict[str, Any],
              row: PlayerRow) -> WhyView:
    number = facts["round"]
    me = snapshot.number(row.id) if row.number is not None else None
    def name(pid: int) -> str:
        return snapshot.row(pid).name

    for bye in facts["byes"]:
        if bye["player"] == me:
            return _why_bye(t, snapshot, facts, row, me, bye)
    for game in facts["games"]:
        if me in (game["white"], game["black"]):
            break
    else:
        raise ConflictError(f"{row.name} did not play in round {number} of '{t.name}' (not "
                            "paired: absent, withdrawn or not yet joined).")
    opp = game["black"] if game["white"] == me else game["white"]
    mine, theirs = facts["players"][str(me)], facts["players"][str(opp)]
    reasons: list[tuple[str, str]] = []
    s_me, s_opp = Fraction(mine["score"]), Fraction(theirs["score"])
    if s_me == s_opp:
        reasons.append(("Opponent", (
            f"You and {name(opp)} both had {_pts(mine['score'])} before round {number}: "
            "players of the same score meet whenever the whole round allows it.")))
    else:
        direction = "down" if s_me > s_opp else "up"
        reasons.append(("Opponent", (
            f"You were paired {direction} from {_pts(mine['score'])} to {name(opp)} "
            f"({_pts(theirs['score'])}) because {_float_reason(facts, me, opp, name)}")))
    met = mine["met"].get(str(opp), 0)
    if met:
        reasons.append(("Rematch", (
            f"You had already played {name(opp)} {met} time{'s' if met > 1 else ''}: rematches "
            "are avoided whenever any other pairing of the round exists, so none did.")))
    colour = None
    if facts["colours"]:
        colour = "white" if game["white"] == me else "black"
        reasons.append(("Colour", _colour_sentence(game, me, opp, mine, theirs, colour,
                                                   name(opp))))
    return WhyView(
        tournament_id=t.id, tournament_name=t.name, round=number, player=seat(row),
        opponent=seat(snapshot.row(opp)), colour=colour, bye_kind=None,
        reasons=tuple(reasons), engine=_engine_line(game["components"]),
    )


def _float_reason(facts: dict[str, Any], me: int, opp: int, name: Any) -> str:
    """Why the higher of the two could not stay in his score group (one sentence's end)."""
    players = facts["players"]
    high = me if Fraction(players[str(me)]["score"]) > Fraction(players[str(opp)]["score"]) \
        else opp
    score = players[str(high)]["score"]
    group = [int(p) for p, s in facts["pairable"].items() if s == score]
    others = [p for p in group if p != high]
    who = "you" if high == me else name(high)
    met = [p for p in others if players[str(high)]["met"].get(str(p))]
    forbidden = {tuple(pair) for pair in facts["forbidden"]}
    apart = [p for p in others if tuple(sorted((p, high))) in forbidden]
    bound = Fraction(facts.get("bound", "4"))
    cd = players[str(high)]["colour_diff"]
    clash = [p for p in others if facts["colours"] and str(p) in players and
             abs(cd + players[str(p)]["colour_diff"]) >= bound and p not in met]
    parts = []
    if met:
        parts.append(f"{who} had already played {', '.join(name(p) for p in met)}")
    if apart:
        parts.append(f"{who} may not meet {', '.join(name(p) for p in apart)} (kept apart)")
    if clash:
        parts.append(f"{', '.join(name(p) for p in clash)} needed the same colour")
    points = _pts(score)
    if len(group) == 1:
        lead = f"the only player on {points} had to meet a lower score"
    elif len(group) % 2 == 1:
        lead = (f"the {len(group)} players on {points} were an odd number, so one of them "
                "had to meet a lower score")
    elif not others:
        lead = f"nobody else had {points}"
    else:
        lead = (f"the {len(group)} players on {points} could not all be paired among "
                "themselves without a rematch or colour clash elsewhere in the round")
    tail = f" ({'; '.join(parts)})" if parts else ""
    if facts["system"] == "fide-dutch":
        return (f"{lead}{tail}. The FIDE Dutch rules pair the score groups from the top "
                "down, each with as many pairs and as small score differences as the rest of "
                "the round allows.")
    return (f"{lead}{tail}. The engine keeps the sum of score differences of the whole round "
            f"as small as possible ({facts['system']} system).")


def _colour_sentence(game: dict[str, Any], me: int, opp: int, mine: dict[str, Any],
                     theirs: dict[str, Any], colour: str, opponent: str) -> str:
    rule = game["colour_rule"] or ""
    cd_me, cd_opp = mine["colour_diff"], theirs["colour_diff"]
    diffs = (f"your colour difference (whites minus blacks) was {_signed(cd_me)} and "
             f"{opponent}'s was {_signed(cd_opp)}")
    if rule.startswith("tcec:"):
        text = _TCEC_COLOUR_RULES.get(int(rule[5:]), "the TCEC colour rules")
        return f"You got {colour} because {text}."
    if rule.startswith("fide:"):
        text = _FIDE_COLOUR_RULES.get(int(rule[5:]), "the FIDE Dutch colour allocation rules")
        return f"You got {colour} because {diffs}; {text}."
    higher = mine["rank"] is not None and theirs["rank"] is not None and \
        mine["rank"] < theirs["rank"]
    if rule == "difference":
        return (f"You got {colour} because {diffs}: the player with the lower colour "
                "difference gets white.")
    if rule == "alternate":
        return (f"You got {colour} because {diffs}, equal, so colours alternate from the last "
                f"round in which you two had different colours (you had "
                f"{'black' if colour == 'white' else 'white'} then).")
    if rule in ("due_higher", "due_lower"):
        decides_me = (rule == "due_higher") == higher
        who = "you were" if decides_me else f"{opponent} was"
        due = mine["due"] if decides_me else theirs["due"]
        rank = "ranked higher" if rule == "due_higher" else "the only one with a colour due"
        return (f"You got {colour} because {diffs}, equal; {who} {rank} and due {due} "
                "(alternating from the last game).")
    if rule == "initial":
        return (f"You got {colour} because neither of you had a colour history: colours "
                f"alternate by board from a coin toss seeded by the event (board "
                f"{game['board']}).")
    return f"You got {colour}."


def _why_bye(t: TournamentRow, snapshot: Snapshot, facts: dict[str, Any], row: PlayerRow,
             me: int, bye: dict[str, Any]) -> WhyView:
    number = facts["round"]
    kind = bye["kind"]
    reasons: list[tuple[str, str]] = []
    if kind != ByeKind.PAIRING.value:
        reasons.append(("Bye", (
            f"You had a {kind}-point bye in round {number} because it was requested for you "
            "(/bye) before the round was paired." if kind != "zero" else
            f"You had a zero-point bye in round {number}: it was requested for you (/bye) or "
            "you were not yet playing in that round.")))
    else:
        players = facts["players"]
        mine = players[str(me)]
        pairable = len(facts["pairable"])
        fewest = mine["unplayed_wins"]
        lower = [int(p) for p, info in players.items()
                 if info["rank"] is not None and mine["rank"] is not None
                 and info["rank"] > mine["rank"] and info["unplayed_wins"] <= fewest]
        components = dict(bye["components"])
        if facts["system"] == "fide-dutch" and "eligible below" in components:
            below = components["eligible below"]
            why = ("the FIDE Dutch rules give it to a player who has not had one (nor a "
                   "forfeit win or full-point bye), with the lowest score the rest of the "
                   "round allows" + (
                       "; nobody eligible had a lower score" if not below else
                       f"; the {below} eligible player{'s' if below > 1 else ''} with a lower "
                       "score had to be paired for everyone else to get an opponent"))
        elif not lower:
            why = (f"you were the lowest-ranked player ({_pts(mine['score'])}, place "
                   f"{mine['rank'] + 1} of {pairable} in the pairing order) among those with "
                   f"the fewest byes and forfeit wins ({fewest})")
        else:
            names = ", ".join(snapshot.row(p).name for p in lower[:5])
            why = (f"giving it to a lower-ranked player with as few byes ({names}) would have "
                   "meant a rematch or left other players unpairable")
        reasons.append(("Bye", (
            f"{pairable} players were to be paired in round {number}, an odd number, so one "
            f"got the pairing bye. You got it because {why}.")))
    return WhyView(
        tournament_id=t.id, tournament_name=t.name, round=number, player=seat(row),
        opponent=None, colour=None, bye_kind=kind, reasons=tuple(reasons),
        engine=_engine_line(bye["components"]),
    )


def pair_and_explain(
    model: Tournament, config: PairingConfig
) -> tuple[PairingResult, dict[str, Any]]:
    """The engine's pairing of the next round and what it saw (for /why): the CPU work of
    ``/round next``, run in a pairing worker process (``service.pairing_pool``)."""
    result = pair_round(model, config)
    return result, pairing_facts(model, result, config.system, config.beta)
