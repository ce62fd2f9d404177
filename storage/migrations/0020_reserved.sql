-- Reserved: the number of a migration of another change (replace this file by it).
SELECT 1;
