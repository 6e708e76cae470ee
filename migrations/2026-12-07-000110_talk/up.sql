-- Table talk (docs/talk.md): the messages of a game, each with its room
-- (`table`: every seat and spectator; `press`: the author's seat and the
-- seats it names; `spectators`: those who watch and do not play, shown to
-- players once the game is over), its author and time. A message keeps its
-- salt, so a private one can be committed to by its hash in the audit and
-- revealed later. An operator may hide a reported message: the row keeps
-- when and by whom. New tables only: nothing existing is rewritten, and a
-- game without its `talk` option (every game before this release) talks
-- at the table.
CREATE TABLE talk_messages (
    game_id uuid NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    id uuid NOT NULL,
    author uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    author_seat smallint,
    room text NOT NULL CHECK (room IN ('table', 'press', 'spectators')),
    to_seats smallint[] NOT NULL DEFAULT '{}',
    body text NOT NULL,
    salt text NOT NULL,
    created_at timestamptz NOT NULL,
    hidden_at timestamptz,
    hidden_by uuid REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (game_id, id)
);
CREATE INDEX talk_messages_by_game ON talk_messages (game_id, created_at, id);

-- Who muted whom: the muted user's messages reach the muter nowhere.
CREATE TABLE talk_mutes (
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    muted uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (user_id, muted)
);

-- A message reported (once per reporter).
CREATE TABLE talk_reports (
    game_id uuid NOT NULL,
    message_id uuid NOT NULL,
    reporter uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, message_id, reporter),
    FOREIGN KEY (game_id, message_id) REFERENCES talk_messages (game_id, id) ON DELETE CASCADE
);

-- The accounts that may hide reported messages (`hatstand operator`).
CREATE TABLE operators (
    user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    granted_at timestamptz NOT NULL
);

-- A notification may now tell of a talk message. The new check is added
-- NOT VALID (no scan under the lock); the next migration validates it
-- without blocking writes.
ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('your_turn', 'game_finished', 'invited', 'talk')) NOT VALID;
