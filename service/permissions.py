"""Who may do what. The cog decides ``Actor.is_organiser`` from Discord (Manage Server or the
guild's organiser role); here we only apply it."""

from __future__ import annotations

from service.errors import NotOrganiserError
from service.views import Actor

# Every operation and who may call it: "organiser", "player" (any member, acting for himself)
# or "anyone" (read-only). The permission-matrix test walks this table.
OPERATIONS: dict[str, str] = {
    "set_organiser_role": "organiser",
    "set_default_channel": "organiser",
    "get_guild_settings": "anyone",
    "create_tournament": "organiser",
    "edit_tournament": "organiser",
    "list_tournaments": "anyone",
    "tournament_info": "anyone",
    "start_tournament": "organiser",
    "finish_tournament": "organiser",
    "cancel_tournament": "organiser",
    "join": "player",
    "leave": "player",
    "check_in": "player",
    "drop_player": "organiser",  # a player drops himself with leave()
    "add_player": "organiser",
    "remove_player": "organiser",
    "set_rating": "organiser",
    "list_players": "anyone",
    "pair_next_round": "organiser",
    "undo_round": "organiser",
    "pairings": "anyone",
    "request_bye": "player",  # for himself; an organiser for anyone
    "cancel_bye_request": "player",
    "forbid_pair": "organiser",
    "report_result": "player",
    "confirm_result": "player",
    "dispute_result": "player",
    "set_result": "organiser",
    "standings": "anyone",
    "export": "anyone",
    "import_players": "organiser",
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
}


def require_organiser(actor: Actor, doing: str) -> None:
    """Raise :class:`NotOrganiserError` unless the actor is an organiser of the guild."""
    if not actor.is_organiser:
        raise NotOrganiserError(
            f"Only organisers can {doing}. Ask someone with the Manage Server permission or the "
            "server's organiser role."
        )
