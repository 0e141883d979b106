-- The payments sandbox's own tables, in its own schema (payments_sandbox by default): it plays
-- a different company from our api and shares none of our tables. No column can hold a card
-- number, a CVC or a full expiry date: a card is kept as a token (the payment method id), its
-- brand, last four digits, expiry month/year and how the simulated issuer answers charges.
-- Times (created, periods, attempts) are unix seconds on the sandbox's clock, which tests move.

CREATE TABLE clock (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  offset_seconds bigint NOT NULL DEFAULT 0
);
INSERT INTO clock (singleton, offset_seconds) VALUES (true, 0);

CREATE TABLE customers (
  id text PRIMARY KEY,
  uid text,
  email text,
  default_payment_method text,
  metadata jsonb NOT NULL DEFAULT '{}',
  created bigint NOT NULL
);
CREATE INDEX customers_uid ON customers (uid);

CREATE TABLE payment_methods (
  id text PRIMARY KEY,
  customer_id text REFERENCES customers (id),
  brand text NOT NULL,
  last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
  exp_month integer NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
  exp_year integer NOT NULL,
  -- succeed | decline | require_3ds (first on-session payment) : how charges are answered
  behaviour text NOT NULL,
  created bigint NOT NULL
);
CREATE INDEX payment_methods_customer ON payment_methods (customer_id);

CREATE TABLE setup_intents (
  id text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customers (id),
  client_secret text NOT NULL UNIQUE,
  status text NOT NULL,
  payment_method_id text REFERENCES payment_methods (id),
  origin text NOT NULL,
  return_url text,
  last_error jsonb,
  created bigint NOT NULL
);

CREATE TABLE subscriptions (
  id text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customers (id),
  status text NOT NULL,
  plan_id text,
  plan_name text,
  amount integer NOT NULL CHECK (amount >= 0),
  currency text NOT NULL DEFAULT 'jpy',
  interval text NOT NULL,
  interval_count integer NOT NULL CHECK (interval_count > 0),
  default_payment_method text REFERENCES payment_methods (id),
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  billing_cycle_anchor bigint NOT NULL,
  current_period_start bigint NOT NULL,
  current_period_end bigint NOT NULL,
  created bigint NOT NULL,
  canceled_at bigint,
  ended_at bigint,
  -- cancellation_requested | payment_failed | null
  cancellation_reason text,
  latest_invoice text,
  metadata jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX subscriptions_customer ON subscriptions (customer_id);
CREATE INDEX subscriptions_due ON subscriptions (status, current_period_end);

CREATE TABLE invoices (
  id text PRIMARY KEY,
  customer_id text NOT NULL REFERENCES customers (id),
  subscription_id text REFERENCES subscriptions (id),
  status text NOT NULL,
  amount_due integer NOT NULL,
  amount_paid integer NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'jpy',
  billing_reason text NOT NULL,
  period_start bigint NOT NULL,
  period_end bigint NOT NULL,
  created bigint NOT NULL,
  paid_at bigint,
  attempt_count integer NOT NULL DEFAULT 0,
  first_failed_at bigint,
  next_payment_attempt bigint,
  payment_intent text,
  last_error jsonb
);
CREATE INDEX invoices_customer ON invoices (customer_id, created DESC);
CREATE INDEX invoices_retry ON invoices (next_payment_attempt) WHERE next_payment_attempt IS NOT NULL;

CREATE TABLE payment_intents (
  id text PRIMARY KEY,
  invoice_id text NOT NULL REFERENCES invoices (id),
  customer_id text NOT NULL REFERENCES customers (id),
  amount integer NOT NULL,
  currency text NOT NULL DEFAULT 'jpy',
  -- requires_action | succeeded | requires_payment_method
  status text NOT NULL,
  payment_method_id text REFERENCES payment_methods (id),
  client_secret text NOT NULL UNIQUE,
  origin text,
  return_url text,
  last_error jsonb,
  created bigint NOT NULL
);

-- Webhook events (an outbox: written in the transaction that changed the state) and their
-- deliveries to the configured endpoint, retried with back-off until a 2xx.
CREATE TABLE events (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  type text NOT NULL,
  created bigint NOT NULL,
  payload text NOT NULL
);

CREATE TABLE deliveries (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL REFERENCES events (id),
  url text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  failed_at timestamptz,
  last_status integer,
  last_error text
);
CREATE INDEX deliveries_pending ON deliveries (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;

-- Idempotency-Key: the first response to a key is replayed for any retry with the same key.
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  method text NOT NULL,
  path text NOT NULL,
  request_hash text NOT NULL,
  status_code integer,
  response text,
  created_at timestamptz NOT NULL DEFAULT now()
);
