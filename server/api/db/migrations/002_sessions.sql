-- Game sessions, the host registry, saves, screenshots and analytics intake (docs/sessions.md).

-- Titles: seeded from games/<id>/meta.json at every api start (upsert). A title whose folder
-- disappeared stays (sessions reference it) but is marked unavailable.
CREATE TABLE games (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  title text NOT NULL,
  meta jsonb NOT NULL,
  available boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Game hosts (Agones-like GameServer states).
CREATE TABLE hosts (
  id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9._-]{1,64}$'),
  url text NOT NULL,
  capacity integer NOT NULL CHECK (capacity BETWEEN 0 AND 256),
  state text NOT NULL CHECK (state IN ('Ready', 'Allocated', 'Shutdown', 'Unhealthy')),
  -- As reported by the last heartbeat (informational; the scheduler counts session rows).
  reported_active integer NOT NULL DEFAULT 0,
  reported_warm integer NOT NULL DEFAULT 0,
  registered_at timestamptz NOT NULL DEFAULT now(),
  last_heartbeat_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sessions (
  id uuid PRIMARY KEY,
  uid text NOT NULL REFERENCES users (uid),
  game_id text NOT NULL REFERENCES games (id),
  state text NOT NULL CHECK (state IN ('queued', 'allocating', 'starting', 'ready', 'playing', 'closing', 'closed', 'failed')),
  host_id text REFERENCES hosts (id),
  failure_reason text CHECK (failure_reason IS NULL OR failure_reason ~ '^[a-z0-9_]{1,64}$'),
  close_reason text CHECK (close_reason IS NULL OR close_reason ~ '^[a-z0-9_]{1,64}$'),
  quality text NOT NULL DEFAULT 'high' CHECK (quality IN ('high', 'medium', 'low')),
  allocation_attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  -- FIFO order of the waiting queue (kept when a session is put back at the head of the queue).
  queued_at timestamptz NOT NULL DEFAULT now(),
  allocated_at timestamptz,
  starting_at timestamptz,
  ready_at timestamptz,
  playing_at timestamptz,
  closing_at timestamptz,
  ended_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- Idle rules: the last player input the host reported (or the player's join).
  last_input_at timestamptz,
  -- Queue abandonment: the last status poll by the owner.
  last_polled_at timestamptz NOT NULL DEFAULT now(),
  -- Reconnect grace: set when the player's signalling connection went away, cleared on return.
  player_left_at timestamptz,
  CHECK ((state = 'failed') = (failure_reason IS NOT NULL))
);

-- One live session per user, enforced by the database itself (two api processes, two tabs).
CREATE UNIQUE INDEX sessions_one_live_per_user ON sessions (uid) WHERE state NOT IN ('closed', 'failed');
CREATE INDEX sessions_queue ON sessions (queued_at, id) WHERE state = 'queued';
CREATE INDEX sessions_host_live ON sessions (host_id) WHERE state IN ('allocating', 'starting', 'ready', 'playing', 'closing');
CREATE INDEX sessions_game_live ON sessions (game_id) WHERE state NOT IN ('closed', 'failed');
CREATE INDEX sessions_uid_created ON sessions (uid, created_at DESC);

-- Append-only log of state changes.
CREATE TABLE session_events (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id),
  from_state text,
  to_state text NOT NULL,
  reason text,
  actor text NOT NULL CHECK (actor IN ('player', 'api', 'host', 'sweeper', 'signal')),
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_events_session ON session_events (session_id, id);

CREATE FUNCTION session_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'session_events is append-only';
END;
$$;
CREATE TRIGGER session_events_no_update BEFORE UPDATE ON session_events
  FOR EACH ROW EXECUTE FUNCTION session_events_append_only();

-- Saves per user, title and slot ("auto" = the autosave a new session resumes from).
CREATE TABLE saves (
  uid text NOT NULL REFERENCES users (uid),
  game_id text NOT NULL REFERENCES games (id),
  slot text NOT NULL CHECK (slot ~ '^[a-z0-9_-]{1,32}$'),
  state jsonb NOT NULL,
  session_id uuid REFERENCES sessions (id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (uid, game_id, slot)
);

CREATE TABLE screenshots (
  id uuid PRIMARY KEY,
  uid text NOT NULL REFERENCES users (uid),
  session_id uuid NOT NULL REFERENCES sessions (id),
  game_id text NOT NULL REFERENCES games (id),
  storage_key text NOT NULL UNIQUE,
  width integer NOT NULL CHECK (width > 0),
  height integer NOT NULL CHECK (height > 0),
  bytes integer NOT NULL CHECK (bytes > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX screenshots_owner ON screenshots (uid, created_at DESC, id DESC);

CREATE TABLE collect_beacons (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id),
  uid text NOT NULL,
  game_id text NOT NULL,
  elapsed_ms double precision NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collect_beacons_session ON collect_beacons (session_id);

CREATE TABLE collect_webrtc_stats (
  id bigserial PRIMARY KEY,
  session_id uuid NOT NULL REFERENCES sessions (id),
  uid text NOT NULL,
  game_id text NOT NULL,
  stats jsonb NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX collect_webrtc_stats_session ON collect_webrtc_stats (session_id);
