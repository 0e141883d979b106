-- Catalogue, magazine and my list (docs/catalogue.md). Brands, titles and articles are seeded
-- from the repository at every api start (services/catalogue/seed.ts); bookmarks and play
-- histories belong to users.

CREATE TABLE brands (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
  name text NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 100),
  reading text NOT NULL,
  description text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Titles stay in `games` (sessions, saves and screenshots reference it); meta.json's fields get
-- real columns. Rows written before this migration get defaults until the next seed fills them
-- (the seed runs right after migrations at every start).
ALTER TABLE games
  ADD COLUMN reading text NOT NULL DEFAULT '',
  ADD COLUMN brand_id text REFERENCES brands (id),
  ADD COLUMN description text NOT NULL DEFAULT '',
  ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
  ADD COLUMN genres text[] NOT NULL DEFAULT '{}',
  ADD COLUMN release_date date,
  ADD COLUMN age_rating text NOT NULL DEFAULT 'all' CHECK (age_rating IN ('all', 'r15', 'r18')),
  ADD COLUMN key_art text NOT NULL DEFAULT '',
  -- [{src, width, height, alt}]
  ADD COLUMN screenshots jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(screenshots) = 'array'),
  -- The games/<folder> the game host plays (today always the id).
  ADD COLUMN game_folder text;

-- The list orders (new, title, by brand) over available titles.
CREATE INDEX games_new ON games (release_date DESC, id) WHERE available;
CREATE INDEX games_by_reading ON games (reading, id) WHERE available;
CREATE INDEX games_brand ON games (brand_id, release_date DESC) WHERE available;
CREATE INDEX games_genres ON games USING gin (genres) WHERE available;

-- "plays" = sessions that reached `playing` in the last 30 days, per title (the popular order).
CREATE INDEX sessions_played ON sessions (playing_at, game_id) WHERE playing_at IS NOT NULL;

CREATE TABLE articles (
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,127}$'),
  title text NOT NULL,
  lead text NOT NULL,
  published_at date NOT NULL,
  author text NOT NULL,
  game_ids text[] NOT NULL DEFAULT '{}',
  tags text[] NOT NULL DEFAULT '{}',
  cover text NOT NULL,
  -- Japanese Markdown, rendered by the web (no raw HTML).
  body text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX articles_newest ON articles (published_at DESC, slug);

CREATE TABLE bookmarks (
  uid text NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  game_id text NOT NULL REFERENCES games (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (uid, game_id)
);
-- My list: newest first, keyset pages.
CREATE INDEX bookmarks_newest ON bookmarks (uid, created_at DESC, game_id DESC);

-- Written by the server in the transaction that ends a session which reached `playing`
-- (services/catalogue/history.ts, called from sessionStore.transition).
CREATE TABLE play_histories (
  uid text NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  game_id text NOT NULL REFERENCES games (id),
  last_played_at timestamptz NOT NULL,
  total_seconds bigint NOT NULL DEFAULT 0 CHECK (total_seconds >= 0),
  play_count integer NOT NULL DEFAULT 0 CHECK (play_count >= 0),
  PRIMARY KEY (uid, game_id)
);
CREATE INDEX play_histories_recent ON play_histories (uid, last_played_at DESC, game_id DESC);
