"""The sandbox: a local stand-in for Discord that the real discord.py client can talk to."""

from sandbox.payloads import (
    SandboxChannel,
    SandboxGuild,
    SandboxMember,
    SandboxRole,
    SandboxUser,
)
from sandbox.server import (
    Attachment,
    FakeDiscord,
    RecordedRequest,
    SandboxError,
    find_button,
)

__all__ = [
    "Attachment",
    "FakeDiscord",
    "RecordedRequest",
    "SandboxChannel",
    "SandboxError",
    "SandboxGuild",
    "SandboxMember",
    "SandboxRole",
    "SandboxUser",
    "find_button",
]
