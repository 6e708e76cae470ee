// @generated automatically by Diesel CLI.

diesel::table! {
    archived_games (game_id) {
        game_id -> Uuid,
        audit -> Bytea,
        json_bytes -> Int4,
        archived_at -> Timestamptz,
    }
}

diesel::table! {
    conditional_lines (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Uuid,
        lines -> Jsonb,
        at_version -> Int8,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    email_addresses (user_id) {
        user_id -> Uuid,
        address -> Text,
        confirmed_at -> Nullable<Timestamptz>,
        code_hash -> Nullable<Text>,
        code_expires_at -> Nullable<Timestamptz>,
        code_attempts -> Int4,
        preferences -> Jsonb,
        digest_hour -> Int2,
        time_zone -> Text,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

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
        prev_hash -> Nullable<Text>,
        hash -> Nullable<Text>,
        created_at -> Timestamptz,
        digest -> Nullable<Bytea>,
        schema_version -> Int2,
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
        state -> Nullable<Text>,
        to_act -> Array<Int2>,
        result -> Nullable<Jsonb>,
        created_by -> Uuid,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
        server_options -> Jsonb,
        deadline -> Nullable<Timestamptz>,
        private -> Bool,
        invite_code -> Nullable<Text>,
        rules_version -> Int2,
        archived_at -> Nullable<Timestamptz>,
        finished_at -> Nullable<Timestamptz>,
        logged_at -> Nullable<Timestamptz>,
        finish_seq -> Nullable<Int8>,
        pause -> Nullable<Jsonb>,
    }
}

diesel::table! {
    invitations (game_id, user_id) {
        game_id -> Uuid,
        user_id -> Uuid,
        invited_at -> Timestamptz,
        declined_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    limit_windows (key) {
        key -> Text,
        window_start -> Timestamptz,
        used -> Int4,
        last_at -> Timestamptz,
    }
}

diesel::table! {
    login_addresses (user_id, address) {
        user_id -> Uuid,
        address -> Text,
        last_login -> Timestamptz,
    }
}

diesel::table! {
    login_failures (key) {
        key -> Text,
        window_start -> Timestamptz,
        failures -> Int4,
    }
}

diesel::table! {
    mail_outbox (user_id, id) {
        user_id -> Uuid,
        id -> Int8,
        kind -> Text,
        notification_id -> Nullable<Int8>,
        game_id -> Nullable<Uuid>,
        payload -> Jsonb,
        digest -> Bool,
        due_at -> Timestamptz,
        state -> Text,
        attempts -> Int4,
        last_error -> Nullable<Text>,
        sent_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    notification_preferences (user_id) {
        user_id -> Uuid,
        push_off -> Array<Text>,
        email_off -> Array<Text>,
        webhooks_off -> Array<Text>,
        quiet_start -> Nullable<Int2>,
        quiet_end -> Nullable<Int2>,
        reminder_before_minutes -> Nullable<Int4>,
        updated_at -> Timestamptz,
    }
}

diesel::table! {
    notifications (user_id, id) {
        id -> Int8,
        user_id -> Uuid,
        game_id -> Nullable<Uuid>,
        kind -> Text,
        payload -> Jsonb,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    idempotency_keys (game_id, user_id, key) {
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
    operators (user_id) {
        user_id -> Uuid,
        granted_at -> Timestamptz,
    }
}

diesel::table! {
    pruned (what) {
        what -> Text,
        upto -> Int8,
    }
}

diesel::table! {
    push_outbox (user_id, id) {
        user_id -> Uuid,
        id -> Int8,
        subscription_id -> Uuid,
        notification_id -> Nullable<Int8>,
        kind -> Text,
        game_id -> Nullable<Uuid>,
        version -> Nullable<Int8>,
        ruleset -> Nullable<Text>,
        not_before -> Timestamptz,
        next_attempt_at -> Timestamptz,
        state -> Text,
        attempts -> Int4,
        last_status -> Nullable<Int4>,
        last_error -> Nullable<Text>,
        sent_at -> Nullable<Timestamptz>,
        created_at -> Timestamptz,
        held_until -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    push_subscriptions (user_id, id) {
        user_id -> Uuid,
        id -> Uuid,
        endpoint -> Text,
        p256dh -> Nullable<Text>,
        auth -> Nullable<Text>,
        created_at -> Timestamptz,
        channel -> Text,
    }
}

diesel::table! {
    rating_changes (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Uuid,
        finish_seq -> Int8,
        ruleset -> Text,
        players -> Int2,
        place -> Int2,
        rating_before -> Float8,
        deviation_before -> Float8,
        volatility_before -> Nullable<Float8>,
        rating_after -> Float8,
        deviation_after -> Float8,
        volatility_after -> Nullable<Float8>,
    }
}

diesel::table! {
    ratings (user_id, ruleset, players) {
        user_id -> Uuid,
        ruleset -> Text,
        players -> Int2,
        rating -> Float8,
        deviation -> Float8,
        volatility -> Nullable<Float8>,
        games -> Int4,
        last_seq -> Int8,
    }
}

diesel::table! {
    ratings_cursor (id) {
        id -> Bool,
        last_seq -> Int8,
    }
}

diesel::table! {
    rematches (game_id) {
        game_id -> Uuid,
        offered_by -> Uuid,
        offered_at -> Timestamptz,
        state -> Text,
        accepted -> Array<Uuid>,
        declined_by -> Nullable<Uuid>,
        answered_at -> Nullable<Timestamptz>,
        new_game_id -> Nullable<Uuid>,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> Uuid,
        seat -> Int2,
        user_id -> Uuid,
        joined_at -> Timestamptz,
        vacation_used_secs -> Int8,
        timeouts -> Int4,
        resigned_at -> Nullable<Timestamptz>,
        game_created_at -> Nullable<Timestamptz>,
        game_status -> Nullable<Text>,
        game_finished_at -> Nullable<Timestamptz>,
        counted -> Nullable<Bool>,
        salt -> Nullable<Text>,
        clock -> Nullable<Jsonb>,
        vacant_since -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    seat_substitutions (game_id, version) {
        game_id -> Uuid,
        version -> Int8,
        seat -> Int2,
        from_user -> Uuid,
        to_user -> Uuid,
        timeouts -> Int4,
        vacation_secs -> Int8,
        at -> Timestamptz,
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
    sessions (id) {
        id -> Uuid,
        user_id -> Uuid,
        refresh_hash -> Bytea,
        previous_hash -> Nullable<Bytea>,
        rotated_at -> Timestamptz,
        created_at -> Timestamptz,
        expires_at -> Timestamptz,
        revoked_at -> Nullable<Timestamptz>,
        revoked_why -> Nullable<Text>,
    }
}

diesel::table! {
    talk_messages (game_id, id) {
        game_id -> Uuid,
        id -> Uuid,
        author -> Uuid,
        author_seat -> Nullable<Int2>,
        room -> Text,
        to_seats -> Array<Int2>,
        body -> Text,
        salt -> Text,
        created_at -> Timestamptz,
        hidden_at -> Nullable<Timestamptz>,
        hidden_by -> Nullable<Uuid>,
        hidden_reason -> Nullable<Text>,
    }
}

diesel::table! {
    talk_mutes (user_id, muted) {
        user_id -> Uuid,
        muted -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    talk_reports (game_id, message_id, reporter) {
        game_id -> Uuid,
        message_id -> Uuid,
        reporter -> Uuid,
        reason -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    tournament_entries (tournament_id, user_id) {
        tournament_id -> Uuid,
        user_id -> Uuid,
        registered_at -> Timestamptz,
        entrant -> Nullable<Int4>,
    }
}

diesel::table! {
    tournament_events (tournament_id, seq) {
        tournament_id -> Uuid,
        seq -> Int8,
        #[sql_name = "type"]
        type_ -> Text,
        data -> Jsonb,
        actor_user -> Nullable<Uuid>,
        hash -> Bytea,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    tournament_rounds (tournament_id, round) {
        tournament_id -> Uuid,
        round -> Int4,
        starts_at -> Timestamptz,
        deadline -> Timestamptz,
        paired_at -> Nullable<Timestamptz>,
        scored_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    tournament_tables (tournament_id, round, table_no) {
        tournament_id -> Uuid,
        round -> Int4,
        table_no -> Int4,
        entrants -> Array<Int4>,
        game_id -> Nullable<Uuid>,
        points -> Nullable<Array<Int4>>,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Uuid,
        organiser -> Uuid,
        name -> Text,
        ruleset -> Text,
        options -> Jsonb,
        table_size -> Int2,
        format -> Text,
        rounds -> Int4,
        duplicate -> Bool,
        bots_substitute -> Bool,
        registration_opens -> Timestamptz,
        registration_closes -> Timestamptz,
        player_cap -> Int4,
        min_rating -> Nullable<Float8>,
        min_reliability -> Nullable<Int2>,
        seed -> Text,
        seed_commitment -> Text,
        status -> Text,
        version -> Int8,
        last_hash -> Bytea,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    user_blocks (user_id, blocked) {
        user_id -> Uuid,
        blocked -> Uuid,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    user_records (user_id) {
        user_id -> Uuid,
        played -> Int8,
        won -> Int8,
        drawn -> Int8,
        lost -> Int8,
        abandoned -> Int8,
        left_seats -> Int8,
        timeouts -> Int8,
        vacation_secs -> Int8,
    }
}

diesel::table! {
    user_settings (user_id) {
        user_id -> Uuid,
        auto_play_forced -> Bool,
        updated_at -> Timestamptz,
        language -> Nullable<Text>,
        time_zone -> Nullable<Text>,
    }
}

diesel::table! {
    users (id) {
        id -> Uuid,
        username -> Text,
        password_hash -> Text,
        created_at -> Timestamptz,
        kind -> Text,
        bot_level -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_deliveries (user_id, id) {
        id -> Int8,
        webhook_id -> Uuid,
        notification_id -> Int8,
        state -> Text,
        attempts -> Int4,
        next_attempt_at -> Timestamptz,
        last_attempt_at -> Nullable<Timestamptz>,
        last_status -> Nullable<Int4>,
        last_error -> Nullable<Text>,
        delivered_at -> Nullable<Timestamptz>,
        user_id -> Uuid,
    }
}

diesel::table! {
    webhooks (id) {
        id -> Uuid,
        user_id -> Uuid,
        url -> Text,
        secret -> Text,
        created_at -> Timestamptz,
    }
}

diesel::table! {
    signing_keys (key_id) {
        key_id -> Text,
        secret -> Bytea,
        public_key -> Bytea,
        created_at -> Timestamptz,
        retired_at -> Nullable<Timestamptz>,
    }
}

diesel::table! {
    log_leaves (idx) {
        idx -> Int8,
        game_id -> Uuid,
        final_hash -> Bytea,
        logged_at -> Timestamptz,
    }
}

diesel::table! {
    log_nodes (level, idx) {
        level -> Int2,
        idx -> Int8,
        hash -> Bytea,
    }
}

diesel::table! {
    log_heads (tree_size) {
        tree_size -> Int8,
        root_hash -> Bytea,
        timestamp_ms -> Int8,
        key_id -> Text,
        signature -> Bytea,
    }
}

diesel::joinable!(conditional_lines -> games (game_id));
diesel::joinable!(conditional_lines -> users (user_id));
diesel::joinable!(email_addresses -> users (user_id));
diesel::joinable!(events -> games (game_id));
diesel::joinable!(mail_outbox -> users (user_id));
diesel::joinable!(archived_games -> games (game_id));
diesel::joinable!(games -> users (created_by));
diesel::joinable!(idempotency_keys -> games (game_id));
diesel::joinable!(invitations -> games (game_id));
diesel::joinable!(invitations -> users (user_id));
diesel::joinable!(notifications -> users (user_id));
diesel::joinable!(push_subscriptions -> users (user_id));
diesel::joinable!(idempotency_keys -> users (user_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(seats -> games (game_id));
diesel::joinable!(seats -> users (user_id));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(tournament_entries -> tournaments (tournament_id));
diesel::joinable!(tournament_entries -> users (user_id));
diesel::joinable!(tournament_events -> tournaments (tournament_id));
diesel::joinable!(tournament_rounds -> tournaments (tournament_id));
diesel::joinable!(tournament_tables -> tournaments (tournament_id));
diesel::joinable!(tournaments -> users (organiser));
diesel::joinable!(user_settings -> users (user_id));
diesel::joinable!(webhook_deliveries -> webhooks (webhook_id));
diesel::joinable!(webhooks -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    archived_games,
    conditional_lines,
    email_addresses,
    events,
    games,
    idempotency_keys,
    invitations,
    limit_windows,
    login_addresses,
    login_failures,
    mail_outbox,
    notification_preferences,
    notifications,
    operators,
    pruned,
    push_outbox,
    push_subscriptions,
    rating_changes,
    ratings,
    ratings_cursor,
    rematches,
    seat_substitutions,
    seats,
    server_secrets,
    sessions,
    talk_messages,
    talk_mutes,
    talk_reports,
    tournament_entries,
    tournament_events,
    tournament_rounds,
    tournament_tables,
    tournaments,
    user_blocks,
    user_records,
    user_settings,
    users,
    webhook_deliveries,
    webhooks,
);
