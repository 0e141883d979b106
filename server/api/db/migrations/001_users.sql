-- Users the API has seen: one row per Firebase uid, written by the first authenticated call
-- (GET /v1/me upserts it). Firebase Auth stays the source of identity (e-mail, providers,
-- claims); this row is what our own tables (sessions, bookmarks, history, ...) reference.
CREATE TABLE users (
  -- Firebase uids are 1 to 128 characters.
  uid text PRIMARY KEY CHECK (char_length(uid) BETWEEN 1 AND 128),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Updated by authenticated calls; null until the first one.
  last_seen_at timestamptz
);
