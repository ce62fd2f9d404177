"""The settings panel (``/tournament settings``): every setting of an event, by group, and
the answer to a change (old -> new, and where it applies).

The groups are also the panel's modals (Discord allows five text inputs in one): each
setting is shown and typed back as text, :func:`setting_text` being the one way a value is
written, so that a modal opened and sent unchanged changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.render.format import plain
from bot.render.limits import add_field
from bot.render.tournament import status_text
from i18n import N_, _
from service.limits import clip
from service.times import MOMENT_SETTINGS

if TYPE_CHECKING:
    from service.settings import SettingsUpdate
    from service.views import TournamentInfo


@dataclass(frozen=True, slots=True)
class Group:
    key: str
    title: str
    settings: tuple[str, ...]
    # after the start, when these apply (the modal then asks: from the next round or to the
    # standings only)
    asks_when: bool = False


GROUPS = (
    Group("event", N_("Event"), ("name", "rounds", "late_join_until", "late_join_bye",
                             "player_byes")),
    Group("pairing", N_("Pairing"), ("system", "dutch_rules", "colours", "rematches"),
          asks_when=True),
    Group("scoring", N_("Scoring and tiebreaks"), ("scoring", "tiebreaks", "tiebreak_rules"),
          asks_when=True),
    Group("timers", N_("Round timers"), ("deadline_minutes", "auto_advance_minutes", "reminders",
                                     "deadline_action", "deadline_fallback")),
    Group("schedule", N_("No-shows and schedule"), ("noshow_grace_minutes", "noshow_drop_after",
                                                "first_round_at", "round_interval_minutes")),
    Group("entry", N_("Entry"), ("capacity", "min_rating", "max_rating", "registration_opens",
                             "registration_closes")),
    Group("checkin", N_("Check-in"), ("checkin", "checkin_opens", "checkin_closes")),
    Group("playoffs", N_("Top cut"), ("top_cut", "playoff_best_of", "playoff_privilege")),
    Group("extras", N_("Ratings and extras"), ("ratings", "game_threads", "pictures", "decklists",
                                           "decklist_deadline")),
)
GROUP_BY_KEY = {g.key: g for g in GROUPS}

# Each setting: its label (a modal's input label: at most 45 characters) and what to type.
LABELS: dict[str, tuple[str, str]] = {
    "name": (N_("Name"), N_("The event's name")),
    "rounds": (N_("Rounds"), N_("Number of Swiss rounds")),
    "late_join_until": (N_("Late join until round"), N_("0: no late joining")),
    "late_join_bye": (N_("Late joiner's missed rounds score"), N_("zero, half or full (a bye)")),
    "player_byes": (N_("Byes players may ask for"), N_("half, zero, both or none")),
    "system": (N_("Pairing system"), N_("dutch, fide-dutch, burstein, monrad, ...")),
    "dutch_rules": (N_("FIDE Dutch rules edition"), N_("2025 or 2017 (fide-dutch only)")),
    "colours": (N_("Balance colours"), N_("on or off")),
    "rematches": (N_("Rematches"), N_("avoid or forbid")),
    "scoring": (N_("Scoring"), N_("chess (1/½/0) or match (3/1/0)")),
    "tiebreaks": (N_("Tiebreaks"), N_("a preset (fide, lichess, mtg, ...) or BH-C1,BH,SB")),
    "tiebreak_rules": (N_("FIDE tie-break rules edition"), N_("auto, 2026 or 2024")),
    "deadline_minutes": (N_("Time to play a round"), N_("e.g. 90m, 1h30, 2d; empty: no deadline")),
    "auto_advance_minutes": (N_("Pair the next round after"), N_("e.g. 10m; empty: off")),
    "reminders": (N_("Reminders (minutes before the deadline)"), N_("e.g. 15,5; empty: none")),
    "deadline_action": (N_("At the deadline"),
                        N_("none, remind, draw, double-loss, reporter-wins")),
    "deadline_fallback": (N_("reporter-wins without a report"), N_("remind, draw or double-loss")),
    "noshow_grace_minutes": (N_("No-show claim after"), N_("e.g. 10m; empty: no claims")),
    "noshow_drop_after": (N_("Drop after forfeits in a row"), N_("0: never")),
    "first_round_at": (N_("Round 1 starts at"),
                       N_("e.g. tomorrow 19:00, fri 18:30, 2026-12-05 19:00 "
                          "(the server's time zone); empty: by command")),
    "round_interval_minutes": (N_("Time between scheduled rounds"),
                               N_("e.g. 1d, 2h30; empty: none")),
    "capacity": (N_("Capacity (players)"), N_("empty: no limit; later joiners wait in line")),
    "min_rating": (N_("Lowest rating admitted"), N_("empty: none")),
    "max_rating": (N_("Highest rating admitted"), N_("empty: none")),
    "registration_opens": (N_("Registration opens"),
                           N_("e.g. fri 18:00 or 2026-05-01 18:00; empty: now")),
    "registration_closes": (N_("Registration closes"),
                            N_("e.g. fri 19:45 or 2026-05-01 19:45; empty: at the start")),
    "checkin": (N_("Check-in required"), N_("on or off")),
    "checkin_opens": (N_("Check-in opens"),
                      N_("e.g. fri 19:00 or 2026-05-01 19:00; empty: always")),
    "checkin_closes": (N_("Check-in closes"),
                       N_("e.g. fri 19:55 or 2026-05-01 19:55; empty: at the start")),
    "top_cut": (N_("Top cut (players)"), N_("0, 2, 4, 8, 16 or 32")),
    "playoff_best_of": (N_("Games per playoff match"), N_("1, 3 or 5")),
    "playoff_privilege": (N_("Higher seed plays in game 1"), N_("white or black")),
    "ratings": (N_("Ratings typed by"), N_("players, organisers, or source (Lichess)")),
    "game_threads": (N_("A private thread per board"), N_("on or off")),
    "pictures": (N_("Standings pictures"), N_("on or off")),
    "decklists": (N_("Decklists"), N_("none, text or link")),
    "decklist_deadline": (N_("Decklists due"),
                          N_("e.g. fri 18:00 or 2026-05-01 18:00; empty: the start")),
    "channel_id": (N_("Channel"), ""),
    "required_role_id": (N_("Role required to join"), ""),
}
BOOLEAN = frozenset({"colours", "checkin", "game_threads", "pictures"})
WHEN_LABEL = N_("After the start: next-round or standings")
APPLIED_TEXT = {
    "next-round": N_("The pairing changes apply from the next round: the rounds played stay "
                     "as they were paired."),
    "standings": N_("The scoring and tiebreak changes apply to the standings (every round is "
                    "counted by them); the pairings already made stay."),
}



def label(key: str) -> str:
    """A setting's label in the current language (a key without one, as it is)."""
    return _(LABELS[key][0]) if key in LABELS else key


def hint(key: str) -> str:
    """What to type for a setting, in the current language."""
    text = LABELS[key][1] if key in LABELS else ""
    return _(text) if text else ""


def group_title(group: Group) -> str:
    return _(group.title)


def when_label() -> str:
    return _(WHEN_LABEL)


#: The settings that are moments (the service reads typed ones in the server's time zone).
MOMENTS = frozenset(MOMENT_SETTINGS)


def setting_text(key: str, value: Any) -> str:
    """A value as the panel shows it and as it is typed back."""
    if value is None:
        return ""
    if key in BOOLEAN:
        return "on" if value else "off"
    if key in MOMENTS:
        # Stored as UTC ISO text; shown with its "Z" so that a form sent back unchanged reads
        # the same moment, whatever the server's time zone (a bare time is read in it).
        return str(value)[:16].replace("T", " ") + "Z"
    return str(value)


def _shown(key: str, value: Any) -> str:
    if key == "channel_id":
        return f"<#{value}>" if value else _("the server's default")
    if key == "required_role_id":
        return f"<@&{value}>" if value else _("anyone")
    text = setting_text(key, value)
    return plain(text, 80) if text else "—"


def panel_embed(info: TournamentInfo) -> discord.Embed:
    """Every setting, by group (the footer names the version the panel was shown for)."""
    s = info.settings
    values = {**{k: getattr(s, k) for k in LABELS if hasattr(s, k)}, "name": info.name,
              "channel_id": info.channel_id}
    embed = discord.Embed(title=_("Settings of {name}", name=plain(info.name, 200)),
                          colour=discord.Colour.dark_teal(),
                          description=_("Status: {status}, round {round} of {rounds}. Choose a "
                                        "group below to change it.",
                                        status=status_text(info.status),
                                        round=info.current_round, rounds=s.rounds))
    for group in GROUPS:
        keys = group.settings + (("channel_id", "required_role_id") if group.key == "event"
                                 else ())
        lines = [f"{label(k)}: {_shown(k, values[k])}" for k in keys]
        add_field(embed, group_title(group), "\n".join(lines), inline=False)
    header = ", ".join(f"{code} {value}" for code, value in sorted(s.trf_header.items()))
    add_field(embed, _("TRF report header (/tournament trf-header)"),
              plain(header, 900) or "—", inline=False)
    embed.set_footer(text=_("Tournament #{id} · settings version {version}", id=info.id,
                            version=info.settings_version))
    return embed


def update_text(update: SettingsUpdate) -> str:
    """The answer to a change: each setting old -> new, and where the changes apply."""
    name = plain(update.info.name, 80)
    if not update.changes:
        return _("Nothing changed in **{name}**: the settings were already so.", name=name)
    lines = [_("**{name}**: settings saved.", name=name)]
    for change in update.changes:
        lines.append(f"• {label(change.key)}: {_shown(change.key, change.before)} → "
                     f"{_shown(change.key, change.after)}")
    for mode in (update.applied or "").split("+"):
        if mode in APPLIED_TEXT:
            lines.append(_(APPLIED_TEXT[mode]))
    return clip("\n".join(lines), 1900)
