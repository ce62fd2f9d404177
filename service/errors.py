"""The service's refusals. Every message is user-facing: it says what is wrong and what to do.

The cogs show ``str(error)`` (or ``error.message``) as an ephemeral reply. ``code`` is a stable
machine-readable name for tests and logs. A refusal's text is a lazy :class:`i18n.Message`
(``error.text``) put into words where it is shown: ``str(error)`` in the current language
(:data:`i18n.current`: the member's, in a Discord interaction; English elsewhere).
"""

from __future__ import annotations

from typing import Any

from i18n import Message, render


class ServiceError(Exception):
    """Base class: a refusal with a message for the user."""

    code = "error"

    def __init__(self, message: str | Message) -> None:
        super().__init__(message)
        self.text = message

    @property
    def message(self) -> str:
        """The text in the current language."""
        return render(self.text)

    def __str__(self) -> str:
        return self.message

    def stored(self) -> str | dict[str, Any]:
        """The text to keep in an outbox payload: put into words when the post is rendered,
        in the server's language then (``i18n.stored``)."""
        return self.text.to_json() if isinstance(self.text, Message) else self.text


class NotFoundError(ServiceError):
    """Something named by the user does not exist (here)."""

    code = "not_found"


class UnknownTournamentError(NotFoundError):
    code = "unknown_tournament"


class AmbiguousTournamentError(NotFoundError):
    """No tournament was named and the guild has several open ones (or none)."""

    code = "ambiguous_tournament"


class UnknownPlayerError(NotFoundError):
    code = "unknown_player"


class UnknownGameError(NotFoundError):
    code = "unknown_game"


class UnknownRoundError(NotFoundError):
    code = "unknown_round"


class PermissionDeniedError(ServiceError):
    code = "permission_denied"


class NotOrganiserError(PermissionDeniedError):
    code = "not_organiser"


class NotManagerError(PermissionDeniedError):
    """Only a server manager (Manage Server, Administrator, owner) may do this."""

    code = "not_manager"


class NotYourGameError(PermissionDeniedError):
    code = "not_your_game"


class InvalidInputError(ServiceError):
    """A value is malformed or out of range."""

    code = "invalid_input"


class InvalidArgumentError(InvalidInputError):
    """An argument of the wrong kind or size for the operation (a float or text where a whole
    number belongs, an id beyond 64 bits): refused where the operation is entered
    (:mod:`service.boundary`)."""

    code = "invalid_argument"


class ConflictError(ServiceError):
    """The request is valid but the tournament is not in a state that allows it."""

    code = "conflict"


class RegistrationClosedError(ConflictError):
    code = "registration_closed"


class AlreadyRegisteredError(ConflictError):
    code = "already_registered"


class NotRegisteredError(ConflictError):
    code = "not_registered"


class TournamentNotRunningError(ConflictError):
    code = "not_running"


class RoundChangedError(ConflictError):
    """The command named a round or a state (a confirmation prompt's course version) that is
    no longer the one it would act on: a double click or a concurrent command got there
    first."""

    code = "round_changed"


class SettingsChangedError(ConflictError):
    """A settings panel named a version of the settings that another change replaced since:
    nothing was changed (the first click acts; a second one, or an older panel, does not)."""

    code = "settings_changed"


class RoundNotCompleteError(ConflictError):
    code = "round_not_complete"


class NotPairedError(ConflictError):
    code = "not_paired"


class AlreadyReportedError(ConflictError):
    code = "already_reported"


class AlreadyFinalError(ConflictError):
    code = "already_final"


class PairingFailedError(ConflictError):
    """The pairing engine found no valid pairing under the hard constraints."""

    code = "pairing_failed"


class PairingInProgressError(ConflictError):
    """The tournament's next round is being computed now (``/round next`` again, a result of
    the finished round, an undo): wait for the pairings."""

    code = "pairing_in_progress"


class PairingBusyError(ConflictError):
    """This process is already pairing as many big events as it may at once."""

    code = "pairing_busy"


class TooManyPlayersError(ConflictError):
    """Registration or import beyond the largest event the bot accepts."""

    code = "too_many_players"
