-- The language of a server's public posts (/config language): a catalogue name of the i18n
-- package ("de", "pt_BR", ...). NULL: not chosen, the server's own Discord locale decides
-- (English when swissbot does not speak it).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
