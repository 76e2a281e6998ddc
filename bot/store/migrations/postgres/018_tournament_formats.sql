-- A tournament's format is any the engine has registered (engine/formats, issue 34): the
-- core checks the name against the registry when a tournament is opened, so the CHECK that
-- listed swiss, round_robin and knockout goes, and a new format needs no migration. (The
-- CHECK written on the column in 014 is named by PostgreSQL's rule: table_column_check.)
ALTER TABLE tournaments DROP CONSTRAINT tournaments_format_check;
