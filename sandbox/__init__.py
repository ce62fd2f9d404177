"""The sandbox: a local stand-in for Discord that the real discord.py client can talk to.

Used by `swissbot demo`, `swissbot sandbox` and the end-to-end tests; imports nothing of ours.
"""

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
