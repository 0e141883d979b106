-- Plans, subscriptions and what the payment flows need to be safe (issue 9, docs/purchase.md).
-- PostgreSQL is the record of who is subscribed: the processor (server/payments) is asked, and
-- its answers are stored here; entitlements (premium titles, …) are read from these rows, never
-- from what a browser says. No card number, CVC or expiry is ever stored: only the brand, the
-- last four digits and the expiry month/year the processor reports.

-- Plans are data: /v1/plans serves them and /v1/purchase/subscribe charges what the row says.
CREATE TABLE plans (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9_-]{0,63}$'),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  -- Yen, tax included (the yen has no minor unit).
  amount_jpy integer NOT NULL CHECK (amount_jpy > 0),
  interval text NOT NULL CHECK (interval IN ('day', 'week', 'month', 'year')),
  interval_count integer NOT NULL DEFAULT 1 CHECK (interval_count BETWEEN 1 AND 36),
  -- Inactive plans are not offered any more; existing subscriptions keep them.
  active boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO plans (id, name, amount_jpy, interval, interval_count, active, sort)
VALUES ('standard', 'スタンダードプラン', 980, 'month', 1, true, 0);

-- The processor's customer of each user (ensureCustomer is told this id, so it never searches).
CREATE TABLE payment_customers (
  uid text PRIMARY KEY REFERENCES users (uid),
  -- 'sandbox' or 'stripe': a customer id of the other processor is never reused.
  processor text NOT NULL,
  customer_id text NOT NULL,
  -- The billing e-mail registered with the processor (receipts).
  email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (processor, customer_id)
);

-- Our record of each processor subscription: always written from a fresh read of the processor
-- (services/payments/sync.ts), so late or reordered webhooks cannot roll it back.
CREATE TABLE subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  uid text NOT NULL REFERENCES users (uid),
  processor text NOT NULL,
  processor_subscription_id text NOT NULL UNIQUE,
  processor_customer_id text NOT NULL,
  plan_id text NOT NULL REFERENCES plans (id),
  status text NOT NULL CHECK (status IN
    ('incomplete', 'incomplete_expired', 'active', 'past_due', 'canceled', 'unpaid', 'trialing', 'paused')),
  amount_jpy integer NOT NULL,
  -- Times are the processor's (its clock may run ahead of ours in tests).
  current_period_start timestamptz NOT NULL,
  current_period_end timestamptz NOT NULL,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  -- cancellation_requested | payment_failed | null
  cancellation_reason text,
  -- When the processor created it (the order of /api/subscriptions).
  created timestamptz NOT NULL,
  canceled_at timestamptz,
  ended_at timestamptz,
  -- Our clock: when the grace period of a past_due subscription ends (set when it becomes past_due).
  grace_until timestamptz,
  -- Until when it grants the plan, computed at every write (services/payments/rules.ts): active →
  -- current_period_end + the grace period (a safety net if webhooks stop), past_due → grace_until,
  -- anything else → null. Entitlement checks are `entitled_until > now()`.
  entitled_until timestamptz,
  default_payment_method_id text,
  card_brand text,
  card_last4 text CHECK (card_last4 ~ '^[0-9]{4}$'),
  card_exp_month smallint CHECK (card_exp_month BETWEEN 1 AND 12),
  card_exp_year smallint,
  inserted_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX subscriptions_by_user ON subscriptions (uid, created DESC);
CREATE INDEX subscriptions_entitled ON subscriptions (uid, entitled_until) WHERE entitled_until IS NOT NULL;

-- POST /v1/purchase/subscribe's idempotency keys: a repeated key (a double click, a retry after a
-- lost answer) gets the first request's result instead of a second charge or an error.
CREATE TABLE purchase_attempts (
  idempotency_key uuid PRIMARY KEY,
  uid text NOT NULL REFERENCES users (uid),
  plan_id text NOT NULL REFERENCES plans (id),
  setup_id text NOT NULL,
  subscription_id uuid REFERENCES subscriptions (id),
  -- active | requires_action | declined
  outcome text CHECK (outcome IN ('active', 'requires_action', 'declined')),
  -- The Japanese refusal message of a declined first payment (replayed as is).
  failure_message text,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The payment-invokePaymentRequest function's requests (/work/notes/issue9-plan.md): a repeated
-- requestId of the same user answers the stored result without calling the processor again.
CREATE TABLE payment_requests (
  request_id uuid PRIMARY KEY,
  uid text NOT NULL REFERENCES users (uid),
  method text NOT NULL CHECK (method IN ('updateEmail')),
  result jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Webhook events already applied (deliveries are retried with the same id).
CREATE TABLE webhook_events (
  event_id text PRIMARY KEY,
  type text NOT NULL,
  processor text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- Titles only subscribers may start (games/<id>/meta.json "premium"; absent = false).
ALTER TABLE games ADD COLUMN premium boolean NOT NULL DEFAULT false;
