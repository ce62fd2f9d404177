"""Slash-command groups: parse options, check permissions, call the service, render the answer.

May import bot, service and swiss; thin by design (no tournament logic), loaded as extensions.
"""
