-- English and French (docs/i18n.md): the language a user chose for the
-- pages, mails and pushes; NULL (every existing row) follows the request's
-- Accept-Language, else English. A nullable column without a default is
-- added to the catalogue only: no row is rewritten. The check is NOT VALID
-- (every existing row is NULL, so nothing needs scanning) and holds for
-- every row written from now on.
ALTER TABLE user_settings ADD COLUMN language text;
ALTER TABLE user_settings ADD CONSTRAINT user_settings_language CHECK (language IN ('en', 'fr')) NOT VALID;
