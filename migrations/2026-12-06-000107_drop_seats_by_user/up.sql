-- Superseded by `seats_inbox`, which leads with the user too.
DROP INDEX CONCURRENTLY IF EXISTS seats_by_user;
