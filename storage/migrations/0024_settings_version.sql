-- The settings panel names the settings it was shown for: each change of an event's settings
-- counts one up, and a click on a panel shown before that change is refused.
ALTER TABLE tournaments ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 0;
