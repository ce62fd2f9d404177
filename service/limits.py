"""Every limit on user input, in one place.

The service's validation (:mod:`service.validation`) enforces them, and the cogs declare the
same bounds on their Discord options (``app_commands.Range[...]``), so Discord's client refuses
what the bot would refuse and never offers a range the bot rejects. A test compares every
registered option with these values.

Discord's own size limits for what the bot sends are in :mod:`bot.render.limits`.
"""

from __future__ import annotations

from swiss.moments import MAX_TIME_TEXT

# Names.
MAX_TOURNAMENT_NAME = 50
MAX_PLAYER_NAME = 32
# A player option: a name, a mention (``<@!`` + up to 20 digits + ``>``) or ``#N``.
MAX_PLAYER_REF = MAX_PLAYER_NAME
# A tournament option: the id autocomplete sends, or a typed name.
MAX_TOURNAMENT_REF = MAX_TOURNAMENT_NAME

# Rounds.
MIN_ROUNDS = 1
MAX_ROUNDS = 99

# Ratings, used for seeding.
MIN_RATING = 0
MAX_RATING = 4000

# Minutes: a round's deadline (up to a week) and the auto-advance delay (up to a day).
MIN_DEADLINE_MINUTES = 1
MAX_DEADLINE_MINUTES = 7 * 24 * 60
MIN_AUTO_ADVANCE_MINUTES = 0
MAX_AUTO_ADVANCE_MINUTES = 24 * 60

# Timers (service.timers): reminders before a round deadline, the no-show grace time, the
# missed games that drop a player, and the interval of scheduled rounds (up to four weeks).
MAX_REMINDERS = 5
MAX_REMINDERS_TEXT = 40
MIN_NOSHOW_GRACE_MINUTES = 1
MAX_NOSHOW_GRACE_MINUTES = 24 * 60
MIN_NOSHOW_DROP_AFTER = 0
MAX_NOSHOW_DROP_AFTER = 10
MIN_ROUND_INTERVAL_MINUTES = 5
MAX_ROUND_INTERVAL_MINUTES = 28 * 24 * 60
# A typed moment ("tomorrow 19:00", "2026-12-05T19:00+01:00") or duration ("1h30"): the
# longest text swiss.moments reads. Every time and duration option takes it.
MAX_START_TIME_TEXT = MAX_TIME_TEXT
# /config timezone: an IANA name ("America/Argentina/ComodRivadavia" is the longest, 32).
MAX_ZONE_NAME = 40
DEADLINE_ACTIONS = ("none", "remind", "draw", "double-loss", "reporter-wins")
DEADLINE_FALLBACKS = ("remind", "draw", "double-loss")

# Games won in a match (match scoring: "2" in a 2-1).
MIN_GAMES_IN_MATCH = 0
MAX_GAMES_IN_MATCH = 99

# Tiebreaks: a preset name or a comma-separated list of acronyms. Bounded so that the list
# fits in one embed field of /tournament info and in a standings footer.
MAX_TIEBREAKS_TEXT = 100
MAX_TIEBREAKS = 10

# Decklists / team lists: a typed list (fits one embed description with room to spare, and a
# slash-command string option) or a link.
MAX_DECKLIST_TEXT = 3000
MAX_DECKLIST_URL = 500
# The decklist deadline option: a moment, like the other time options.
MAX_DECKLIST_DEADLINE_TEXT = MAX_TIME_TEXT

# User text quoted back in a refusal or a reply is cut to this many characters: a refusal that
# echoed a 6,000-character option would exceed Discord's 2,000 and never reach the user.
ECHO_LIMIT = 60
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending with "…" when it was cut."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(ELLIPSIS))] + ELLIPSIS


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """User text quoted back in a message: on one line, quoted, at most ``limit`` characters
    inside the quotes. Every refusal that repeats what the user typed goes through here."""
    if not isinstance(value, str):  # a number is shown as it is, like repr() did
        return clip(repr(value), limit)
    return repr(clip(" ".join(value.split()), limit))

# A top cut of 32 plays 5 knockout rounds after the Swiss, numbered after its rounds.
PLAYOFF_ROUNDS = 5
#: Draft versions a /round command accepts (a draft is previewed or edited far fewer times).
MAX_DRAFT_VERSION = 1_000_000

#: Capacity of a tournament with a waitlist (players admitted; the rest wait in line).
MIN_CAPACITY = 2
MAX_CAPACITY = 9_999  # as many as an event may hold (service.pairing_pool.MAX_EVENT_PLAYERS)
#: The longest window time accepted (a moment, like the other time options).
MAX_WINDOW_TEXT = MAX_TIME_TEXT
# One value of the TRF report header (/tournament trf-header): swiss.trf.header.MAX_TEXT.
MAX_TRF_HEADER_TEXT = 80
# /tournament settings setting: value: (a setting's name; its value, typed as in the panel's
# forms, which take longer ones such as a long tiebreak list)
MAX_SETTING_NAME = 40
MAX_SETTING_TEXT = 80
# /notify dm: the choices (direct messages on or off), and the game-thread setting's choices.
DM_CHOICES = ("on", "off")
GAME_THREAD_CHOICES = (True, False)
# A thread's name (Discord allows 100 characters).
MAX_THREAD_NAME = 100
# Rows at the top of the standings picture (/standings image:true top:).
MIN_PICTURE_TOP = 1
MAX_PICTURE_TOP = 50
# /config retention: days an ended event is kept (0: for good; at most ten years).
MIN_RETENTION_DAYS = 0
MAX_RETENTION_DAYS = 3650
#: /tournament advise: the simulation's time budget (seconds), the extra time allowed for the
#: worker process to start (imports) or to wait for another guild's advice, and the largest
#: field it simulates (a 512-player event still plays a few events per system in that time).
ADVICE_SECONDS = 10.0
ADVICE_STARTUP_SECONDS = 30.0
MAX_ADVICE_PLAYERS = 512

# Lichess (service.lichess): a username, or a profile address (https://lichess.org/@/name);
# a clock such as "180+60".
MAX_LICHESS_USERNAME_TEXT = 60
MAX_CLOCK_TEXT = 12
