"""Who may do what. The cog decides ``Actor.is_manager`` (Manage Server, Administrator or the
guild owner) and ``Actor.is_organiser`` (a manager, or the guild's organiser role) from
Discord; here we only apply them.

Levels, from the strongest:

* ``"manager"``: server settings, above all who organises. An organiser must not be able to
  widen his own circle (setting the organiser role to @everyone), so only a server manager may.
* ``"organiser"``: runs tournaments.
* ``"player"``: any member, acting for himself (an organiser may act for others where the
  operation says so).
* ``"anyone"``: read-only.
"""

from __future__ import annotations

from typing import Literal

from i18n import N_, Message, lazy
from service.errors import NotManagerError, NotOrganiserError
from service.views import Actor

Level = Literal["manager", "organiser", "player", "anyone"]

# Every public operation and its level. The permission-matrix test walks this table and fails
# when an operation of TournamentService has no entry; docs/discord.md shows the same table.
OPERATIONS: dict[str, Level] = {
    "set_organiser_role": "manager",  # who organises: never an organiser's own decision
    "set_timezone": "manager",  # how every organiser's typed times are read
    "set_default_channel": "manager",  # server-wide setting, like the bot's channel rights
    "get_guild_settings": "anyone",
    "set_language": "manager",  # the language of the server's posts: a server setting
    "guild_language": "anyone",
    "create_tournament": "organiser",
    "edit_tournament": "organiser",
    "update_settings": "organiser",
    "list_tournaments": "anyone",
    "tournament_info": "anyone",
    "start_tournament": "organiser",
    "finish_tournament": "organiser",
    "cancel_tournament": "organiser",
    # what a destructive action would do, for its confirmation prompt
    "preview_action": "organiser",
    "join": "player",
    "leave": "player",
    "check_in": "player",
    "drop_player": "organiser",  # a player drops himself with leave()
    "add_player": "organiser",  # also re-admits a withdrawn player
    "remove_player": "organiser",
    "set_rating": "organiser",
    "rate_player": "organiser",
    "list_players": "anyone",
    "pair_next_round": "organiser",
    "undo_round": "organiser",
    "pairings": "anyone",
    "request_bye": "player",  # for himself; an organiser for anyone
    "cancel_bye_request": "player",
    "forbid_pair": "organiser",
    "report_result": "player",
    "confirm_result": "player",  # the reporter's opponent, or an organiser
    "dispute_result": "player",  # the reporter's opponent, or an organiser
    "set_result": "organiser",
    "standings": "anyone",
    "export": "anyone",
    "export_files": "anyone",  # decklists only once published, or for organisers
    "export_pgn": "anyone",
    "set_trf_header": "organiser",
    "import_players": "organiser",
    "set_player_fields": "organiser",  # rating fields: a birth date is personal data
    "import_player_list": "organiser",
    "resolve_tournament": "anyone",  # which event a command means (names only open events)
    "claim_no_show": "player",
    "lichess_claim_no_show": "player",
    "object_no_show": "player",  # only the player the claim is against
    "pending_timers": "anyone",
    # pairing drafts (issue 15 item 4)
    "preview_round": "organiser",
    "show_draft": "organiser",
    "swap_in_draft": "organiser",
    "pair_in_draft": "organiser",
    "bye_in_draft": "organiser",
    "publish_draft": "organiser",
    "discard_draft": "organiser",
    # entry and player-side requests (items 5, 7)
    "leave_waitlist": "player",
    "pending_requests": "organiser",
    "decide_bye_request": "organiser",
    "request_leave": "player",
    "decide_leave_request": "organiser",
    "set_dm": "anyone",  # a member's own direct-message choice
    "why": "player",  # his own pairing; an organiser anyone's
    "tiebreak_explanation": "anyone",  # tiebreaks are public, like the standings
    "submit_decklist": "player",  # his own; an organiser for anyone
    "publish_decklists": "organiser",
    "decklist_status": "organiser",
    "show_decklist": "player",  # his own; others once published; organisers always
    "crosstable": "anyone",
    "web_link": "anyone",  # the page shows what /pairings and /standings show
    "advise": "organiser",  # seconds of CPU in a worker process: not for every member
    # Lichess (service.lichess): a member links his own account; organisers see all links
    "lichess_link_code": "player",
    "lichess_verify": "player",
    "lichess_oauth_start": "player",
    "lichess_oauth_finish": "anyone",  # the web redirect: the state names the member
    "lichess_unlink": "player",
    "lichess_links": "organiser",
    "lichess_link_of": "anyone",
    "lichess_event": "organiser",
    "lichess_ratings": "anyone",
    # a member's data (service.privacy): his own; a manager may forget another member
    "privacy_export": "player",
    "privacy_summary": "player",
    "privacy_forget": "player",
    "set_retention": "manager",  # deletes the server's old events: a server setting
    # team events: a captain acts for his team, an organiser for any team
    "team_settings": "organiser",
    "team_event": "anyone",
    "create_team": "player",
    "add_member": "player",
    "remove_member": "player",
    "set_lineup": "player",
    "check_in_team": "player",
    "drop_team": "player",
    "list_teams": "anyone",
    "pair_team_round": "organiser",
    "team_pairings": "anyone",
    "team_standings": "anyone",
    "report_board": "player",
    "confirm_board": "player",
    "report_match": "player",
    "confirm_match": "player",
    "set_team_result": "organiser",
    "export_team_files": "anyone",
}

WHO_MAY = {
    "manager": N_("members with the Manage Server or Administrator permission, or the server "
                  "owner"),
    "organiser": N_("members with the Manage Server permission or the server's organiser role"),
}


def require_manager(actor: Actor, doing: str | Message) -> None:
    """Raise :class:`NotManagerError` unless the actor manages the server. ``doing``: what
    was refused, a lazy text (``lazy("set the organiser role")``) put into the words of
    whoever reads the refusal."""
    if not actor.is_manager:
        raise NotManagerError(lazy(
            "Only server managers can {doing}: {who}. Organisers run tournaments but do not "
            "decide who organises.", doing=doing, who=lazy(WHO_MAY["manager"])))


def require_organiser(actor: Actor, doing: str | Message) -> None:
    """Raise :class:`NotOrganiserError` unless the actor is an organiser of the guild."""
    if not actor.is_organiser:
        raise NotOrganiserError(lazy(
            "Only organisers can {doing}. Ask someone with the Manage Server permission or the "
            "server's organiser role.", doing=doing))
