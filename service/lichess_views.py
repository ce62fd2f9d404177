"""What the Lichess operations return (rendered by cogs/lichess.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from service.errors import ServiceError

#: How long a profile code or an OAuth link stays valid.
LINK_MINUTES = 10


class LichessServiceError(ServiceError):
    code = "lichess"


class LichessNotSetUpError(LichessServiceError):
    code = "lichess_not_set_up"


class LichessUnreachableError(LichessServiceError):
    code = "lichess_unreachable"


class LichessAccountError(LichessServiceError):
    """Unknown account, refused token, code not in the profile."""

    code = "lichess_account"


class LichessClaimedError(LichessServiceError):
    code = "lichess_claimed"


@dataclass(frozen=True, slots=True)
class LinkCodeView:
    """A profile code to paste: ``code`` into the bio or location of ``username``."""

    username: str
    code: str
    expires_at: datetime
    profile_url: str


@dataclass(frozen=True, slots=True)
class OAuthStartView:
    url: str
    expires_at: datetime


@dataclass(frozen=True, slots=True)
class LinkView:
    user_id: int
    username: str
    method: str


@dataclass(frozen=True, slots=True)
class ConflictView:
    username: str
    holder_id: int
    claimant_id: int
    at: datetime


@dataclass(frozen=True, slots=True)
class LinksView:
    links: list[LinkView]
    conflicts: list[ConflictView]


@dataclass(frozen=True, slots=True)
class LichessEventView:
    tournament: str
    speed: str
    clock: str
    rated: bool


@dataclass(frozen=True, slots=True)
class LichessRatingView:
    name: str
    username: str
    rating: int
    provisional: bool

    @property
    def shown(self) -> str:
        """Lichess's own way: a provisional rating carries a question mark."""
        return f"{self.rating}?" if self.provisional else str(self.rating)
