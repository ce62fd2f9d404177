"""The ``swissbot`` command line: one module per sub-command, plus the simulator's application side.

The top layer: may import bot, service, storage, swiss and sandbox; nothing imports it.
"""
