-- SQLite's 0010 stores moves and commands WITHOUT ROWID (one B-tree per
-- table). PostgreSQL keeps tables as heaps with a separate primary-key
-- index and has no such form: nothing to change, but both backends keep
-- the same migration numbers.
SELECT 1;
