-- A player's own games, found from their seats alone. The inbox
-- (`GET /v1/me/games`) lists a user's games newest first, by status; the
-- export lists their games that are over by end time; the bot worker looks
-- at the active games of the built-in bots. Each read walked the games of
-- the whole server (newest first) and checked every one against `seats`:
-- its cost grew with every game anyone created. Each seat now carries what
-- those lists sort and filter by, so an index on seats leading with the user
-- serves them in order, reading only the caller's own rows.
--
-- The copies are kept by the database, whoever writes (this release, the
-- release before it during a rolling upgrade, an operator's psql): a seat
-- takes them from its game when inserted, and a game's change of status is
-- copied to its seats in the same statement. A game's status changes a few
-- times in its life (open, active, over), never on an ordinary move: the
-- trigger's condition costs a move nothing else.
--
-- New nullable columns without defaults: no rewrite of the table. Existing
-- seats are filled by the next migration, in batches; the indexes are built
-- concurrently by the ones after it.
ALTER TABLE seats
    ADD COLUMN game_created_at timestamptz,
    ADD COLUMN game_status text,
    ADD COLUMN game_finished_at timestamptz;

CREATE FUNCTION seats_copy_their_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.game_created_at IS NULL OR NEW.game_status IS NULL THEN
        SELECT g.created_at, g.status, g.finished_at
          INTO NEW.game_created_at, NEW.game_status, NEW.game_finished_at
          FROM games g
         WHERE g.id = NEW.game_id;
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER seats_copy_their_game BEFORE INSERT ON seats
    FOR EACH ROW EXECUTE FUNCTION seats_copy_their_game();

CREATE FUNCTION games_status_to_seats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE seats
       SET game_status = NEW.status, game_finished_at = NEW.finished_at
     WHERE game_id = NEW.id;
    RETURN NULL;
END
$$;
CREATE TRIGGER games_status_to_seats AFTER UPDATE OF status ON games
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION games_status_to_seats();
