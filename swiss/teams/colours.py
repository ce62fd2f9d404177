"""Team colours by FIDE C.04.6: colour preferences (art. 1.7) and colour allocation (art. 4).

A team "had" a colour in a match only when the match was played over the board, and that
colour is board 1's. None of these preferences is absolute: colours never stop two teams from
meeting; they only choose between pairings of equal quality (criteria C8 and C9).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from swiss.teams.model import Colour, Team, TeamPair, TeamRules

Strength = Literal["strong", "mild"]


@dataclass(frozen=True, slots=True)
class Preference:
    """A team's colour preference; ``colour`` None means no preference."""

    colour: Colour | None = None
    strength: Strength | None = None

    @property
    def strong(self) -> bool:
        return self.strength == "strong"


NONE = Preference()


def colour_difference(colours: list[Colour]) -> int:
    """Matches with White minus matches with Black (art. 1.6)."""
    return sum(1 if c == "w" else -1 for c in colours)


def preference(team: Team, rules: TeamRules, last_round: bool) -> Preference:
    """The team's colour preference under the competition's colour model (art. 1.7)."""
    if rules.colour_model == "none":
        return NONE
    colours = team.played_colours()
    if not colours:
        return NONE
    cd = colour_difference(colours)
    twice = colours[-1] if len(colours) >= 2 and colours[-1] == colours[-2] else None
    if cd < -1 or (cd in (0, -1) and twice == "b"):
        return Preference("w", "strong")
    if cd > 1 or (cd in (0, 1) and twice == "w"):
        return Preference("b", "strong")
    if rules.colour_model == "type-a":
        return NONE
    if cd == -1:
        return Preference("w", "mild")
    if cd == 1:
        return Preference("b", "mild")
    if not last_round:  # cd == 0: alternate, except when pairing the last round
        return Preference("b" if colours[-1] == "w" else "w", "mild")
    return NONE


def unfulfilled(a: Preference, b: Preference) -> tuple[int, int]:
    """(teams whose preference goes unmet, teams whose strong preference goes unmet) when
    ``a`` and ``b`` meet: only equal preferences clash, and a strong one beats a mild one."""
    if a.colour is None or a.colour != b.colour:
        return 0, 0
    return 1, 1 if a.strong and b.strong else 0


def _other(colour: Colour) -> Colour:
    return "b" if colour == "w" else "w"


def _first_team(a: Team, b: Team, rules: TeamRules) -> tuple[Team, Team]:
    """Art. 4.2: the higher primary score, then (if used) the higher secondary, then the
    smaller pairing number."""
    def key(team: Team) -> tuple[Fraction, Fraction, int]:
        secondary = team.score(rules.secondary) if rules.use_secondary else Fraction(0)
        return (-team.score(rules.primary), -secondary, team.tpn)

    return (a, b) if key(a) <= key(b) else (b, a)


def _last_colour(team: Team) -> Colour | None:
    colours = team.played_colours()
    return colours[-1] if colours else None


def _alternate_last_difference(first: Team, other: Team) -> Colour | None:
    """Art. 4.3.6: going back through each team's played matches together (the latest of
    each, then the one before, ...; unplayed rounds skipped, as gacrux reads it), the latest
    time one had White and the other Black; the first-team takes the colour it did not have
    then."""
    for mine, theirs in zip(reversed(first.played_colours()), reversed(other.played_colours()),
                            strict=False):
        if mine != theirs:
            return _other(mine)
    return None


def allocate(a: Team, b: Team, rules: TeamRules, last_round: bool) -> TeamPair:
    """Board 1's colours for the match between ``a`` and ``b`` (art. 4.3, first rule that
    decides)."""
    first, other = _first_team(a, b, rules)
    colour = _first_team_colour(first, other, rules, last_round)
    return TeamPair(first.tpn, other.tpn) if colour == "w" else TeamPair(other.tpn, first.tpn)


def _first_team_colour(first: Team, other: Team, rules: TeamRules,
                       last_round: bool) -> Colour:
    first_colours, other_colours = first.played_colours(), other.played_colours()
    if not first_colours and not other_colours:  # 4.3.1
        return rules.initial_colour if first.tpn % 2 == 1 else _other(rules.initial_colour)
    p1, p2 = preference(first, rules, last_round), preference(other, rules, last_round)
    if rules.colour_model != "none":
        if p1.colour is not None and p2.colour is None:  # 4.3.2
            return p1.colour
        if p2.colour is not None and p1.colour is None:
            return _other(p2.colour)
        if p1.colour is not None and p1.colour != p2.colour:  # 4.3.3
            return p1.colour
        if rules.colour_model == "type-b" and p1.strong != p2.strong:  # 4.3.4
            return p1.colour if p1.strong else _other(p2.colour)  # type: ignore[arg-type]
    cd1, cd2 = colour_difference(first_colours), colour_difference(other_colours)
    if cd1 != cd2:  # 4.3.5
        return "w" if cd1 < cd2 else "b"
    alternated = _alternate_last_difference(first, other)  # 4.3.6
    if alternated is not None:
        return alternated
    if rules.colour_model != "none" and p1.colour is not None:  # 4.3.7
        return p1.colour
    last = _last_colour(first)  # 4.3.8
    if last is not None:
        return _other(last)
    last = _last_colour(other)  # 4.3.9
    assert last is not None  # 4.3.1 covered two teams without a played match
    return last
