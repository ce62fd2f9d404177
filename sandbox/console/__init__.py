"""A web console for the sandbox: a person picks a member and a channel, types slash commands
as in Discord's client, clicks the bot's buttons and menus, fills its modals and watches the
channel. Served by the sandbox itself under ``/console/`` (see :mod:`sandbox.console.routes`).
"""

from sandbox.console.command_line import CommandLine, CommandLineError, parse_command_line

__all__ = ["CommandLine", "CommandLineError", "parse_command_line"]
