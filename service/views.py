"""The result objects the service returns and the cogs render. Plain frozen dataclasses.

Points are :class:`fractions.Fraction`; :func:`format_points` renders them ("2½", "3").
Results are ``swiss.model.Result`` values seen from white ("1-0", "1/2-1/2", "+--", ...);
:attr:`GameView.result_text` is the human form.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from fractions import Fraction
from typing import Any, Literal

from swiss.wording import points_text

#: "2½", "3": the one score format of every table and message (swiss.wording).
format_points = points_text

TournamentStatus = Literal["registration", "running", "finished", "cancelled"]
PlayerStatus = Literal["registered", "active", "withdrawn", "no_show"]
GameState = Literal["pending", "reported", "disputed", "final"]
ResultChoice = Literal["win", "draw", "loss", "forfeit_win", "forfeit_loss", "double_forfeit"]
ByeKindName = Literal["pairing", "half", "full", "zero"]
ExportFormat = Literal["trf", "csv", "json"]


@dataclass(frozen=True, slots=True)
class DeferredReply:
    """Where the answer to a command that is still working goes: the chat app's id and the
    command's own reply token, valid ``until`` (set by the cog). A pairing run keeps it while it
    runs, so that a restarted bot can still answer a command a crash cut short; it is deleted
    with the run. The token is a credential for that one answer: never shown in a repr or log.
    """

    application_id: int
    token: str = field(repr=False)
    until: datetime


@dataclass(frozen=True, slots=True)
class InterruptedPairing:
    """A pairing a previous run of the bot did not finish (found at start-up). ``text`` is
    what its organiser is told; ``reply`` the command to tell it to, when there was one."""

    tournament_id: int
    guild_id: int
    tournament_name: str
    round_number: int
    text: str
    token: str = field(repr=False)  # the run's marker (not the reply's token)
    reply: DeferredReply | None = field(default=None, repr=False)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts. The cog decides both levels from Discord; the service trusts them.

    ``is_manager``: Manage Server, Administrator or the guild owner. Managers decide who
    organises (the organiser role) and the server-wide settings; a manager is always an
    organiser too. ``is_organiser``: a manager or a member with the guild's organiser role; runs
    tournaments. Giving ``is_manager=True`` implies ``is_organiser``.
    """

    user_id: int
    guild_id: int
    display_name: str
    is_organiser: bool = False
    is_manager: bool = False
    # The member's Discord role ids (entry conditions); the cog fills them in.
    roles: frozenset[int] = frozenset()
    # The command's deferred answer (a pairing run keeps it: see DeferredReply)
    reply: DeferredReply | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A manager can always make himself an organiser, so he is one: one source of truth.
        if self.is_manager and not self.is_organiser:
            object.__setattr__(self, "is_organiser", True)


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """Everything an organiser chooses at creation (editable until the start).

    ``tiebreaks`` is a swiss.standings preset or a comma-separated list of acronyms.
    ``auto_advance_minutes``: ``None`` = off; otherwise pair the next round that many minutes
    after the last result of a round is final (0 = at once, on the next background tick).
    ``late_join_until``: the last round a late joiner may still be paired in (0 = no late join);
    ``late_join_bye``: what he scores for each missed round (zero, half or full bye).
    ``tiebreak_rules``: the FIDE C.07 edition of the tie-breaks: "2026", "2024", or "auto" (the
    edition in force on the day the event was created).
    ``game_threads``: open a thread per board (private where possible) for each round.
    ``pictures``: the standings posts after each round carry a PNG of the table.
    """

    rounds: int
    system: str = "dutch"
    scoring: str = "chess"
    tiebreaks: str = "fide"
    colours: bool = True
    rematches: Literal["avoid", "forbid"] = "avoid"
    deadline_minutes: int | None = None
    auto_advance_minutes: int | None = None
    checkin: bool = False
    late_join_until: int = 0
    late_join_bye: Literal["zero", "half", "full"] = "zero"
    tiebreak_rules: Literal["auto", "2026", "2024"] = "auto"
    # The top cut (service.playoffs): 0 = none, else the number of players seeded into a
    # single-elimination bracket when the Swiss ends; each match is best of
    # ``playoff_best_of`` games; ``playoff_privilege``: what the higher seed plays in game 1
    # ("white" = white / plays first, "black").
    top_cut: int = 0
    playoff_best_of: int = 1
    playoff_privilege: Literal["white", "black"] = "white"
    # Timers (service.timers). ``reminders``: minutes before the deadline at which the players
    # of open games are pinged ("15,5"; "" = none). ``deadline_action``: what happens to open
    # games at the deadline (none, remind, draw, double-loss, reporter-wins);
    # ``deadline_fallback``: for reporter-wins, what happens to games with no single report.
    reminders: str = ""
    deadline_action: str = "none"
    deadline_fallback: str = "remind"
    # No-shows: a player may claim one this many minutes after the round was paired (None =
    # off); the opponent can object for as long again. ``noshow_drop_after``: that many games
    # lost by forfeit in a row drop the player (0 = never).
    noshow_grace_minutes: int | None = None
    noshow_drop_after: int = 0
    # Scheduled rounds: round 1 starts at ``first_round_at`` (UTC ISO text), round k
    # ``round_interval_minutes`` * (k - 1) later, once the round before is complete or its
    # deadline has passed. None = rounds start only by command (and auto-advance).
    first_round_at: str | None = None
    round_interval_minutes: int | None = None
    # Entry (issue 15 item 5): at most ``capacity`` players, the others wait in line;
    # ``required_role_id``: only members with that Discord role may join; ``min_rating`` /
    # ``max_rating``: the rating range of events that use ratings (a rating is then required);
    # the registration and check-in windows: ISO-8601 UTC times, None = always open.
    capacity: int | None = None
    required_role_id: int | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    registration_opens: str | None = None
    registration_closes: str | None = None
    checkin_opens: str | None = None
    checkin_closes: str | None = None
    # Player-side requests (item 7): the byes a player may ask for (an organiser approves).
    player_byes: Literal["half", "zero", "both", "none"] = "both"
    # A private thread per board at each round, with both players (issue 16); off by default.
    game_threads: bool = False
    # Decklists / team lists: "none", "text" (a list typed in) or "link" (an http(s) URL);
    # submissions close at decklist_deadline (UTC ISO text) or, without one, at the start.
    decklists: Literal["none", "text", "link"] = "none"
    decklist_deadline: str | None = None
    pictures: bool = False  # attach a PNG of the standings to the posts after each round
    # system "fide-dutch": the edition of FIDE C.04.3 it pairs by ("2025" or "2017").
    dutch_rules: Literal["2025", "2017"] = "2025"
    # The TRF report header the organiser set (swiss.trf.header: "022" city, "102" chief
    # arbiter ...), written by the TRF export; codes the organiser left out are not written.
    trf_header: dict[str, str] = field(default_factory=dict)
    # Who gives the ratings that seed the event: the players when they join ("players"),
    # the organisers only ("organisers": /join refuses a typed rating), or the rating source
    # the event is linked to ("source": its Lichess ratings).
    ratings: Literal["players", "organisers", "source"] = "players"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class GuildSettingsView:
    guild_id: int
    organiser_role_id: int | None
    default_channel_id: int | None
    timezone: str = "UTC"  # IANA name (/config timezone)


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    id: int
    guild_id: int
    name: str
    status: TournamentStatus
    settings: TournamentSettings
    channel_id: int | None
    seed: int
    created_by: int
    created_at: datetime
    players: int  # registered or active players (not withdrawn, not no-shows)
    current_round: int  # rounds paired so far (0 before the start)
    round_state: Literal["playing", "complete"] | None
    auto_advance_due: datetime | None = None
    # Why announcements are not reaching the channel, e.g. "missing Send Messages in
    # #tournaments" (None when they are delivered): shown by /tournament info.
    delivery_problem: str | None = None
    # Said once, in the answer to a change: a typed local time that happens twice (the clocks
    # go back) was read as the first of the two.
    notes: tuple[str, ...] = ()
    # Counts the changes of the settings: a settings panel names the one it was shown for.
    settings_version: int = 0


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player of one tournament. ``id`` is the database id, ``number`` the pairing number
    (``None`` before the start); ``user_id`` is ``None`` for a guest."""

    id: int
    tournament_id: int
    name: str
    user_id: int | None
    rating: int
    status: PlayerStatus
    checked_in: bool
    number: int | None
    joined_round: int
    withdrawn_round: int | None

    @property
    def mention(self) -> str:
        """``<@id>`` for a member, the plain name for a guest."""
        return f"<@{self.user_id}>" if self.user_id is not None else self.name


@dataclass(frozen=True, slots=True)
class Seat:
    """One side of a game or a bye: enough to render and mention the player."""

    player_id: int
    number: int | None
    name: str
    user_id: int | None


@dataclass(frozen=True, slots=True)
class GameView:
    id: int
    tournament_id: int
    round: int
    board: int
    white: Seat
    black: Seat
    result: str  # swiss.model.Result value, "*" while not final
    state: GameState
    white_games: int | None = None
    black_games: int | None = None
    reported_result: str | None = None  # the waiting report, seen from white
    reported_by: int | None = None  # player id of the reporter
    disputed_by: int | None = None
    disputed_result: str | None = None

    @property
    def result_text(self) -> str:
        text = {"*": "pending", "1/2-1/2": "½-½", "+--": "1F-0F", "--+": "0F-1F", "---": "0F-0F"}
        base = text.get(self.result, self.result)
        if self.white_games is not None and self.black_games is not None:
            base += f" ({self.white_games}-{self.black_games})"
        return base


@dataclass(frozen=True, slots=True)
class ByeView:
    player: Seat
    kind: ByeKindName
    points: Fraction


@dataclass(frozen=True, slots=True)
class RoundView:
    tournament_id: int
    tournament_name: str
    number: int
    total_rounds: int
    state: Literal["playing", "complete"]
    games: tuple[GameView, ...]
    byes: tuple[ByeView, ...]
    paired_at: datetime
    deadline: datetime | None = None
    use_colours: bool = True
    # A playoff round (top cut): its stage ("Semi-finals") and rules line; None for the Swiss.
    stage: str | None = None
    playoff_note: str = ""
    # A playoff round's seeds: (pairing number, seed) of every player in it.
    seeds: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ReportOutcome:
    """What a report, confirmation or dispute did.

    ``status``: ``awaiting_confirmation`` (the opponent must confirm or dispute), ``final``
    (confirmed or matching reports), ``disputed`` (the organisers must decide).
    ``opponent`` is who should answer (for the Confirm / Dispute buttons: ``game.id``).
    """

    game: GameView
    status: Literal["awaiting_confirmation", "final", "disputed"]
    reporter: Seat
    opponent: Seat
    round_complete: bool = False
    tournament_finished: bool = False


@dataclass(frozen=True, slots=True)
class DmPromptView:
    """A Confirm / Dispute prompt sent by DM whose game was settled another way (or undone:
    ``game`` is None). The bot disables its buttons, then :meth:`close_dm_prompt`."""

    announcement_id: int
    guild_id: int
    game_id: int
    channel_id: int  # the DM channel
    message_id: int
    game: GameView | None


@dataclass(frozen=True, slots=True)
class PromptView:
    """A posted Confirm / Dispute prompt whose game was settled another way (or undone:
    ``game`` is None). The bot disables its buttons and closes it."""

    game_id: int
    channel_id: int
    message_id: int
    game: GameView | None
    guild_id: int = 0


@dataclass(frozen=True, slots=True)
class StandingsRowView:
    rank: int
    player_id: int
    number: int
    name: str
    user_id: int | None
    points: Fraction
    values: tuple[Fraction | float, ...]
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class PlacingView:
    """One player's placing in the top cut: ``place`` is "Winner", "Finalist",
    "Semi-finalist", ... or "Still in" while the bracket runs."""

    place: str
    seed: int
    player_id: int
    name: str
    user_id: int | None


@dataclass(frozen=True, slots=True)
class StandingsView:
    tournament_id: int
    tournament_name: str
    after_round: int
    total_rounds: int
    final: bool
    tiebreaks: tuple[str, ...]
    rows: tuple[StandingsRowView, ...]
    rules: str = "2026"  # the C.07 edition the values follow
    ties_note: str = ""  # ties left after every tiebreak and what comes next ("" if none)
    # The top cut's placing (winner, finalist, ...), best first; empty without a bracket.
    placings: tuple[PlacingView, ...] = ()
    # Round ``after_round`` is still being played: the table counts its final results so far.
    in_play: bool = False


@dataclass(frozen=True, slots=True)
class CrosstableRowView:
    """One player's row: ``cells[i]`` is round i+1 (``3w1``: against start number 3 with
    white, won; ``B½``, ``·``, see service.live.crosstable_view)."""

    rank: int
    number: int
    name: str
    user_id: int | None
    points: Fraction
    cells: tuple[str, ...]
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class CrosstableView:
    tournament_id: int
    tournament_name: str
    after_round: int
    total_rounds: int
    rows: tuple[CrosstableRowView, ...]
    # What a cell means (the pictures and the live page show it with the table).
    legend: str = ""


@dataclass(frozen=True, slots=True)
class ByeRequestView:
    player: Seat
    round: int
    kind: ByeKindName
    status: Literal["pending", "approved"] = "approved"


@dataclass(frozen=True, slots=True)
class ExportFile:
    filename: str
    content: str
    media_type: str
    note: str = ""  # for the reader: what the file leaves out and why


@dataclass(frozen=True, slots=True)
class Announcement:
    """One outbox row. ``kind``: pairings, round_results, standings, final_standings, dispute,
    result_corrected, round_undone, tournament_started, tournament_cancelled. ``payload`` is
    JSON-ready data with everything needed to render it (see service.outbox).
    ``payload_text``: the payload's JSON left unparsed (``payload`` is then empty) when it
    was claimed with ``unparsed_from`` and is that big: the caller parses it elsewhere."""

    id: int
    guild_id: int
    channel_id: int | None
    tournament_id: int | None
    kind: str
    payload: dict[str, Any]
    created_at: datetime
    attempts: int = 0
    last_error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    payload_text: str | None = None


@dataclass(frozen=True, slots=True)
class NoShowView:
    """A no-show claim on ``game``: ``state`` open (the opponent may object until
    ``ends_at``), objected, granted (a forfeit win for the claimant) or void."""

    game: GameView
    claimant: Seat
    opponent: Seat
    claimed_at: datetime
    ends_at: datetime
    state: Literal["open", "objected", "granted", "void"]


@dataclass(frozen=True, slots=True)
class TimerRun:
    """What one background pass of :meth:`TournamentService.run_timers` did: one line per
    timer that acted (``"tournament 3 round 2: deadline"``), for the bot's log."""

    fired: tuple[str, ...] = ()
    skipped: int = 0
    failed: int = 0


@dataclass(frozen=True, slots=True)
class DraftBoard:
    board: int
    white: Seat
    black: Seat


@dataclass(frozen=True, slots=True)
class DraftView:
    """The next round as computed (and perhaps edited), not published: organisers only.

    ``version`` names exactly this draft: publish and confirmations refuse another one.
    ``stale``: results, players or requests changed since it was computed; it cannot be
    published (preview again). ``warnings``: the rules the draft breaks (after edits).
    """

    tournament_id: int
    tournament_name: str
    round_number: int
    version: int
    boards: tuple[DraftBoard, ...]
    byes: tuple[tuple[Seat, str], ...]
    warnings: tuple[str, ...]
    notes: tuple[str, ...]
    stale: bool = False
    use_colours: bool = True


@dataclass(frozen=True, slots=True)
class DraftEdit:
    """The outcome of a draft edit. ``applied`` is False when the edit breaks a rule the draft
    did not break before and was not confirmed: ``new_warnings`` says which; run it again with
    ``confirm=True`` (the button) on the same ``draft.version``."""

    applied: bool
    draft: DraftView
    new_warnings: tuple[str, ...]
    action: str
    players: tuple[str, ...]
    numbers: tuple[int, ...] = ()  # the players' pairing numbers (a confirm button names them)


@dataclass(frozen=True, slots=True)
class WaitingView:
    """A member on the waitlist of a full tournament (``position`` 1 = next in)."""

    tournament_id: int
    tournament_name: str
    user_id: int
    name: str
    position: int


@dataclass(frozen=True, slots=True)
class RequestsView:
    """What waits for organisers: players' bye requests, leave requests; and the waitlist."""

    tournament_id: int
    tournament_name: str
    byes: tuple[ByeRequestView, ...]
    leaves: tuple[Seat, ...]
    waiting: tuple[WaitingView, ...]


ConfirmAction = Literal["next", "undo", "finish", "cancel", "drop"]


@dataclass(frozen=True, slots=True)
class ActionPreview:
    """What a destructive organiser action would do now, before doing it.

    ``consequence`` says it in words ("closes round 2: 3 open games become double
    forfeits, then pairs round 3"). ``version`` is the tournament's course version and
    ``round_number`` the round the action names (next: the round to pair; undo and finish:
    the latest round; 0 before any): a confirmation button carries both, and the action is
    refused unless they still hold when it is clicked. ``player_number`` names the player of
    a drop. ``needs_confirmation`` is False when nothing would be lost (act at once)."""

    action: ConfirmAction
    tournament_id: int
    tournament_name: str
    version: int
    round_number: int
    consequence: str
    needs_confirmation: bool
    player_number: int | None = None
