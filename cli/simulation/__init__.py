"""The simulator's application side: experiment runs over many tournaments and their plots.

May import swiss (the pure simulation core) and third-party numerics; nothing of the bot.
"""
