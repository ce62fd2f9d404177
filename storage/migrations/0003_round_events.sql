-- When each round was paired or undone, to the millisecond. A round command names the round it
-- acts on through the moment the organiser sent it (the interaction's creation time): if the
-- round changed at or after that moment, the organiser has not seen the change and the command
-- is refused instead of acting on a round they did not mean (a double click, two organisers).
-- Rows of an undone round stay: "round 3 was already undone" needs them.

CREATE TABLE round_events (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_number INTEGER NOT NULL CHECK (round_number >= 1),
    event TEXT NOT NULL CHECK (event IN ('paired', 'undone')),
    -- Milliseconds since the Unix epoch (UTC): the seconds of the other time columns are too
    -- coarse to order two clicks 150 ms apart.
    at_ms INTEGER NOT NULL,
    actor_id INTEGER NOT NULL
);
CREATE INDEX round_events_tournament ON round_events (tournament_id, at_ms);
