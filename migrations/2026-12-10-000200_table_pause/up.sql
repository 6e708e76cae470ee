-- Pausing the table by vote (docs/clocks.md): the pause as it stands
-- (`{"since", "until", "proposal"}`, `record::pause`), NULL when no pause
-- was ever proposed (every existing row). A nullable column without a
-- default is added to the catalogue only: no row is rewritten. It is
-- written by the same version-guarded statement as the step's events, and
-- `hatstand verify` refolds it from them.
ALTER TABLE games ADD COLUMN pause jsonb;
