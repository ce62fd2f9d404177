"""The Discord side: the client, settings, outbox delivery, rendering for Discord, logging.

May import service, storage and swiss (and discord.py); never cogs or cli (cogs load as extensions).
"""
