-- The codes dropped are gone for good (their mails were done); nothing to undo.
SELECT 1;
