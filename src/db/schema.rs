// @generated automatically by Diesel CLI.

diesel::table! {
    events (game_id, seq) {
        game_id -> Uuid,
        seq -> Int8,
        #[sql_name = "type"]
        type_ -> Text,
        data -> Jsonb,
        actor_user -> Nullable<Uuid>,
        actor_seat -> Nullable<Int2>,
        command -> Nullable<Jsonb>,
        prev_hash -> Text,
        hash -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    games (id) {
        id -> Uuid,
        ruleset -> Text,
        players -> Int2,
        options -> Jsonb,
        seed -> Text,
        seed_public -> Bool,
        seed_commitment -> Text,
        status -> Text,
        version -> Int8,
        last_hash -> Text,
        state -> Nullable<Jsonb>,
        to_act -> Array<Int2>,
        result -> Nullable<Jsonb>,
        created_by -> Uuid,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    idempotency_keys (user_id, key) {
        user_id -> Uuid,
        key -> Text,
        game_id -> Uuid,
        request_hash -> Text,
        response_status -> Int2,
        response_body -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Uuid,
        joined_at -> Timestamptz,
    }
}

diesel::table! {
    server_secrets (name) {
        name -> Text,
        value -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    users (id) {
        id -> Uuid,
        username -> Text,
        password_hash -> Text,
        created_at -> Timestamptz,
    }
}

diesel::joinable!(events -> games (game_id));
diesel::joinable!(games -> users (created_by));
diesel::joinable!(idempotency_keys -> games (game_id));
diesel::joinable!(idempotency_keys -> users (user_id));
diesel::joinable!(seats -> games (game_id));
diesel::joinable!(seats -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    events,
    games,
    idempotency_keys,
    seats,
    server_secrets,
    users,
);
