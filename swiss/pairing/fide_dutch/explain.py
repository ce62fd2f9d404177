"""Why the FIDE Dutch engine paired each board as it did (``swissbot pair --explain``, ``/why``).

Computed after the fact from the pairing, the players' state before the round
(:class:`~swiss.pairing.fide_dutch.players.DutchPlayer`) and the rules, in the same shape as
the other systems' explanations (:class:`~swiss.pairing.types.PairExplanation`: named integer
components, costs as positive numbers where lower is better). Per board it says which of the
criteria of C.04.3 decided it:

* ``score difference``: the pairing score difference (PSD) of the pair, in score units
  (``x2`` in the name when scores are counted in half points); the higher player then
  *downfloats* and the lower one *upfloats*;
* ``rank higher`` / ``rank lower``: both players' places in the pairing order (score, then
  pairing number), which shows the S1/S2 split (top half against bottom half of a score group)
  and any transposition or exchange;
* ``excluded: met`` / ``excluded: forbidden`` / ``excluded: colour``: how many players of
  their own score groups the two could *not* have been given, by the absolute criteria (no
  rematch, pairs kept apart, two non-topscorers with the same absolute colour preference);
  these are why a pairing leaves the natural S1/S2 order or floats a player;
* ``repeated downfloat`` / ``repeated upfloat`` (and ``... two rounds before``): the float
  criteria that count against this pair (the higher player floated down, or the lower one up,
  in the previous round / two rounds before too);
* ``preference not met`` / ``strong preference not met`` / ``absolute preference not met``:
  the colour criteria, after colours are allocated;
* ``colour rule``: which colour allocation rule gave the colours, 1 to 5 in the Handbook's
  order (E.1 both preferences granted, E.2 the stronger preference, E.3 alternate to the last
  round with different colours, E.4 the higher-ranked player's preference, E.5 the initial
  colour to the higher-ranked player when his number among the players taking part is odd).

For the pairing-allocated bye (PAB): ``bye score`` (score units), ``eligible below`` (players
with a lower score who could have had the bye but whom completion left paired: 0 means the
lowest possible score got it), ``ineligible`` (players the absolute criterion excluded: they
already had a PAB, a forfeit win or a full-point bye), ``unplayed rounds`` and ``rank``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from swiss.model import ByeKind, Color, Scoring, Tournament
from swiss.pairing.fide_dutch.players import DutchPlayer, dutch_players
from swiss.pairing.types import PairExplanation, PairingResult
from swiss.state import Float

# Colour allocation rules in the Handbook's order (the ``colour rule`` component).
COLOUR_RULES: dict[int, str] = {
    1: "both colour preferences granted (E.1)",
    2: "the stronger colour preference granted (E.2)",
    3: "colours alternate to the last round in which the two had different colours (E.3)",
    4: "the higher-ranked player's colour preference granted (E.4)",
    5: "the initial colour to the higher-ranked player with an odd number among the players "
       "taking part (E.5)",
}


def colour_rule(a: DutchPlayer, b: DutchPlayer) -> int:
    """The colour allocation rule (1-5: E.1-E.5) that decides the colours of ``a`` and ``b``.

    The first rule in the Handbook's order that applies, as the engine's allocation applies
    them: E.1 when the preferences can both be granted (or one player has none), E.2 when
    they are equal and one is stronger (two absolute ones: the wider colour difference), E.3
    when the played colour sequences differ somewhere, E.4 otherwise, E.5 when neither has a
    preference.
    """
    hi, lo = (a, b) if a.rank_key() < b.rank_key() else (b, a)
    if hi.pref is Color.NONE and lo.pref is Color.NONE:
        return 5
    if hi.pref is Color.NONE or lo.pref is Color.NONE or hi.pref != lo.pref:
        return 1
    if hi.strength != lo.strength:
        return 2
    if hi.strength == 3 and abs(hi.cd) != abs(lo.cd):
        return 2
    for ch, cl in zip(reversed(hi.colors), reversed(lo.colors), strict=False):
        if ch != cl:
            return 3
    return 4


class _Group:
    """One score group, with what the exclusion counts need as sets (C-speed counting: a
    round-1 group is the whole field)."""

    def __init__(self, members: Sequence[DutchPlayer]) -> None:
        self.ids = frozenset(p.id for p in members)
        # non-topscorers with an absolute preference, by colour (C3 pairs two of them)
        self.absolute: dict[Color, frozenset[int]] = {
            colour: frozenset(p.id for p in members
                              if p.strength == 3 and p.pref is colour and not p.topscorer)
            for colour in (Color.WHITE, Color.BLACK)
        }


def _exclusions(p: DutchPlayer, group: _Group,
                partners: Mapping[int, frozenset[int]]) -> tuple[int, int, int]:
    """(met, forbidden, colour): players of ``p``'s score group the absolute criteria
    keep from ``p`` (each counted once, by the first criterion that excludes it)."""
    met = (p.played & group.ids) - {p.id}
    kept = (partners.get(p.id, frozenset()) & group.ids) - met - {p.id}
    colour: frozenset[int] = frozenset()
    if p.strength == 3 and not p.topscorer and p.pref in group.absolute:
        colour = group.absolute[p.pref] - met - kept - {p.id}
    return len(met), len(kept), len(colour)


def explain_pairing(
    players: Mapping[int, DutchPlayer],
    games: Sequence[tuple[int, int]],
    pab: int | None,
    *,
    forbidden: Iterable[frozenset[int]] = (),
    scoring: Scoring | None = None,
    use_colors: bool = True,
) -> tuple[PairExplanation, ...]:
    """One explanation per game (``(white, black)`` in board order) and one for the PAB.

    ``players`` are the :class:`DutchPlayer` states of everyone who was paired (before the
    round), ``forbidden`` the tournament's pairs kept apart, ``scoring`` its point
    system (scores are counted in its smallest unit: half points for 1/½/0, so the
    component names are the same in every round of an event).
    """
    scale = score_scale(scoring or Scoring())
    unit = "" if scale == 1 else f" x{scale}"
    members: dict[Fraction, list[DutchPlayer]] = {}
    for p in players.values():
        members.setdefault(p.score, []).append(p)
    groups = {score: _Group(group) for score, group in members.items()}
    partner_sets: dict[int, set[int]] = {}
    for pair in forbidden:
        for a in pair:
            partner_sets.setdefault(a, set()).update(pair - {a})
    partners = {a: frozenset(b) for a, b in partner_sets.items()}
    out: list[PairExplanation] = []
    for white, black in games:
        w, b = players[white], players[black]
        hi, lo = (w, b) if w.rank_key() < b.rank_key() else (b, w)
        diff = abs(w.score - b.score)
        excluded = [0, 0, 0]
        for p in (w, b):
            for k, n in enumerate(_exclusions(p, groups[p.score], partners)):
                excluded[k] += n
        floats = hi.score != lo.score
        missed = strong = absolute = 0
        for p, got in ((w, Color.WHITE), (b, Color.BLACK)):
            if p.pref is not Color.NONE and p.pref is not got:
                missed += 1
                strong += int(p.strength >= 2)
                absolute += int(p.strength == 3)
        components: list[tuple[str, int]] = [
            (f"score difference{unit}", int(diff * scale)),
            ("rank higher", hi.rank),
            ("rank lower", lo.rank),
            ("excluded: met", excluded[0]),
            ("excluded: forbidden", excluded[1]),
            ("excluded: colour", excluded[2]),
            ("repeated downfloat", int(floats and hi.float_prev is Float.DOWN)),
            ("repeated upfloat", int(floats and lo.float_prev is Float.UP)),
            ("downfloat two rounds before", int(floats and hi.float_prev2 is Float.DOWN)),
            ("upfloat two rounds before", int(floats and lo.float_prev2 is Float.UP)),
        ]
        if use_colors:
            components += [
                ("preference not met", missed),
                ("strong preference not met", strong),
                ("absolute preference not met", absolute),
                ("colour rule", colour_rule(w, b)),
            ]
        out.append(PairExplanation(
            white=white, black=black, repeat=0, score_diff=diff,
            color_term=abs(w.cd + b.cd) if use_colors else None,
            system_term=(hi.rank, lo.rank), components=tuple(components),
        ))
    if pab is not None:
        p = players[pab]
        paired = [q for q in players.values() if q.id != pab]
        below = sum(1 for q in paired if q.score < p.score and q.can_pab)
        ineligible = sum(1 for q in players.values() if not q.can_pab)
        out.append(PairExplanation(
            white=pab, black=None, repeat=0, score_diff=Fraction(0), color_term=None,
            system_term=(p.rank,),
            components=(
                (f"bye score{unit}", int(p.score * scale)),
                ("eligible below", below),
                ("ineligible", ineligible),
                ("unplayed rounds", p.unplayed),
                ("rank", p.rank),
            ),
        ))
    return tuple(out)


def score_scale(scoring: Scoring) -> int:
    """The number of score units in a point: every outcome of ``scoring`` is a whole
    number of units (2 for 1/½/0, 1 for 3/1/0)."""
    return math.lcm(*(Fraction(getattr(scoring, f.name)).denominator
                      for f in dataclasses.fields(scoring)))


def explain_fide_dutch(tournament: Tournament, result: PairingResult,
                       rules: str) -> tuple[PairExplanation, ...]:
    """:func:`explain_pairing` for ``result``, a pairing of ``tournament``'s next round by
    edition ``rules`` (the players' states are derived again from the tournament)."""
    number = result.round_number
    requested = tournament.requested_byes.get(number, {})
    to_pair = [p.id for p in tournament.players
               if tournament.is_active(p.id, number) and p.id not in requested]
    players = dutch_players(tournament, number, to_pair, rules)
    pab = next((b.player for b in result.byes if b.kind is ByeKind.PAIRING), None)
    return explain_pairing(players, [(g.white, g.black) for g in result.games], pab,
                           forbidden=tournament.forbidden_pairs, scoring=tournament.scoring,
                           use_colors=tournament.use_colors)
