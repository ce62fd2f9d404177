-- The server's time zone (an IANA name such as Europe/Paris, set by /config timezone): the
-- moments organisers type ("tomorrow 19:00") are read in it. Stored moments stay UTC.
ALTER TABLE guild_settings ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
