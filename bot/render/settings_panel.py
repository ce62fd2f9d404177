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
from service.limits import clip

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
    Group("event", "Event", ("name", "rounds", "late_join_until", "late_join_bye",
                             "player_byes")),
    Group("pairing", "Pairing", ("system", "dutch_rules", "colours", "rematches"),
          asks_when=True),
    Group("scoring", "Scoring and tiebreaks", ("scoring", "tiebreaks", "tiebreak_rules"),
          asks_when=True),
    Group("timers", "Round timers", ("deadline_minutes", "auto_advance_minutes", "reminders",
                                     "deadline_action", "deadline_fallback")),
    Group("schedule", "No-shows and schedule", ("noshow_grace_minutes", "noshow_drop_after",
                                                "first_round_at", "round_interval_minutes")),
    Group("entry", "Entry", ("capacity", "min_rating", "max_rating", "registration_opens",
                             "registration_closes")),
    Group("checkin", "Check-in", ("checkin", "checkin_opens", "checkin_closes")),
    Group("playoffs", "Top cut", ("top_cut", "playoff_best_of", "playoff_privilege")),
    Group("extras", "Ratings and extras", ("ratings", "game_threads", "pictures", "decklists",
                                           "decklist_deadline")),
)
GROUP_BY_KEY = {g.key: g for g in GROUPS}

# Each setting: its label (a modal's input label: at most 45 characters) and what to type.
LABELS: dict[str, tuple[str, str]] = {
    "name": ("Name", "The event's name"),
    "rounds": ("Rounds", "Number of Swiss rounds"),
    "late_join_until": ("Late join until round", "0: no late joining"),
    "late_join_bye": ("Late joiner's missed rounds score", "zero, half or full (a bye)"),
    "player_byes": ("Byes players may ask for", "half, zero, both or none"),
    "system": ("Pairing system", "dutch, fide-dutch, burstein, monrad, ..."),
    "dutch_rules": ("FIDE Dutch rules edition", "2025 or 2017 (fide-dutch only)"),
    "colours": ("Balance colours", "on or off"),
    "rematches": ("Rematches", "avoid or forbid"),
    "scoring": ("Scoring", "chess (1/½/0) or match (3/1/0)"),
    "tiebreaks": ("Tiebreaks", "a preset (fide, lichess, mtg, ...) or BH-C1,BH,SB"),
    "tiebreak_rules": ("FIDE tie-break rules edition", "auto, 2026 or 2024"),
    "deadline_minutes": ("Time to play a round", "e.g. 90m, 1h30, 2d; empty: no deadline"),
    "auto_advance_minutes": ("Pair the next round after", "e.g. 10m; empty: off"),
    "reminders": ("Reminders (minutes before the deadline)", "e.g. 15,5; empty: none"),
    "deadline_action": ("At the deadline", "none, remind, draw, double-loss, reporter-wins"),
    "deadline_fallback": ("reporter-wins without a report", "remind, draw or double-loss"),
    "noshow_grace_minutes": ("No-show claim after", "e.g. 10m; empty: no claims"),
    "noshow_drop_after": ("Drop after forfeits in a row", "0: never"),
    "first_round_at": ("Round 1 starts at", "e.g. tomorrow 19:00, fri 18:30, 2026-12-05 19:00 "
                       "(the server's time zone); empty: by command"),
    "round_interval_minutes": ("Time between scheduled rounds", "e.g. 1d, 2h30; empty: none"),
    "capacity": ("Capacity (players)", "empty: no limit; later joiners wait in line"),
    "min_rating": ("Lowest rating admitted", "empty: none"),
    "max_rating": ("Highest rating admitted", "empty: none"),
    "registration_opens": ("Registration opens (UTC)", "e.g. 2026-05-01T18:00; empty: now"),
    "registration_closes": ("Registration closes (UTC)", "e.g. 2026-05-01T19:45; empty: "
                            "at the start"),
    "checkin": ("Check-in required", "on or off"),
    "checkin_opens": ("Check-in opens (UTC)", "e.g. 2026-05-01T19:00; empty: always"),
    "checkin_closes": ("Check-in closes (UTC)", "e.g. 2026-05-01T19:55; empty: at the start"),
    "top_cut": ("Top cut (players)", "0, 2, 4, 8, 16 or 32"),
    "playoff_best_of": ("Games per playoff match", "1, 3 or 5"),
    "playoff_privilege": ("Higher seed plays in game 1", "white or black"),
    "ratings": ("Ratings typed by", "players, organisers, or source (Lichess)"),
    "game_threads": ("A private thread per board", "on or off"),
    "pictures": ("Standings pictures", "on or off"),
    "decklists": ("Decklists", "none, text or link"),
    "decklist_deadline": ("Decklists due (UTC)", "e.g. 2026-05-01T18:00; empty: the start"),
    "channel_id": ("Channel", ""),
    "required_role_id": ("Role required to join", ""),
}
BOOLEAN = frozenset({"colours", "checkin", "game_threads", "pictures"})
WHEN_LABEL = "After the start: next-round or standings"
APPLIED_TEXT = {
    "next-round": "The pairing changes apply from the next round: the rounds played stay as "
                  "they were paired.",
    "standings": "The scoring and tiebreak changes apply to the standings (every round is "
                 "counted by them); the pairings already made stay.",
}


#: The settings that are moments (the service reads typed ones in the server's time zone).
MOMENTS = frozenset({"first_round_at", "registration_opens", "registration_closes",
                     "checkin_opens", "checkin_closes", "decklist_deadline"})


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
        return f"<#{value}>" if value else "the server's default"
    if key == "required_role_id":
        return f"<@&{value}>" if value else "anyone"
    text = setting_text(key, value)
    return plain(text, 80) if text else "—"


def panel_embed(info: TournamentInfo) -> discord.Embed:
    """Every setting, by group (the footer names the version the panel was shown for)."""
    s = info.settings
    values = {**{k: getattr(s, k) for k in LABELS if hasattr(s, k)}, "name": info.name,
              "channel_id": info.channel_id}
    embed = discord.Embed(title=f"Settings of {plain(info.name, 200)}",
                          colour=discord.Colour.dark_teal(),
                          description=f"Status: {info.status}, round {info.current_round} of "
                                      f"{s.rounds}. Choose a group below to change it.")
    for group in GROUPS:
        keys = group.settings + (("channel_id", "required_role_id") if group.key == "event"
                                 else ())
        lines = [f"{LABELS[k][0]}: {_shown(k, values[k])}" for k in keys]
        add_field(embed, group.title, "\n".join(lines), inline=False)
    header = ", ".join(f"{code} {value}" for code, value in sorted(s.trf_header.items()))
    add_field(embed, "TRF report header (/tournament trf-header)", plain(header, 900) or "—",
              inline=False)
    embed.set_footer(text=f"Tournament #{info.id} · settings version {info.settings_version}")
    return embed


def update_text(update: SettingsUpdate) -> str:
    """The answer to a change: each setting old -> new, and where the changes apply."""
    name = plain(update.info.name, 80)
    if not update.changes:
        return f"Nothing changed in **{name}**: the settings were already so."
    lines = [f"**{name}**: settings saved."]
    for change in update.changes:
        label = LABELS.get(change.key, (change.key, ""))[0]
        lines.append(f"• {label}: {_shown(change.key, change.before)} → "
                     f"{_shown(change.key, change.after)}")
    for mode in (update.applied or "").split("+"):
        if mode in APPLIED_TEXT:
            lines.append(APPLIED_TEXT[mode])
    return clip("\n".join(lines), 1900)
