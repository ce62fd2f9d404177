-- Reserved: the number of a migration merged from another line of work (this file is
-- replaced by it).
SELECT 1;
