#!/bin/bash
# Reference migration script.
set -euo pipefail
cat > /app/migrate.sql <<'SQL'
-- Migration of the CRM database from schema version 3 to version 4.
--
-- Idempotent: on a database that is already at version 4, the CREATE ... IF NOT
-- EXISTS statements below recreate *empty* v3 tables, every INSERT then copies
-- nothing, and the v3 tables are dropped again, so nothing changes.
-- Atomic: everything runs in one transaction; with `sqlite3 -bail` any error
-- (e.g. a CHECK constraint violation) aborts and rolls back.

BEGIN;

CREATE TABLE IF NOT EXISTS contacts (
    id         INTEGER PRIMARY KEY,
    full_name  TEXT NOT NULL,
    email      TEXT,
    tags       TEXT,
    signup_ts  INTEGER
);
CREATE TABLE IF NOT EXISTS purchases (
    id          INTEGER PRIMARY KEY,
    contact_id  INTEGER,
    amount      TEXT NOT NULL,
    status      TEXT,
    ts          INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS customers (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    email         TEXT UNIQUE,
    signed_up_at  TEXT
);
CREATE TABLE IF NOT EXISTS tags (
    id    INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE CHECK (name <> '' AND name NOT GLOB '*[^a-z0-9-]*')
);
CREATE TABLE IF NOT EXISTS customer_tags (
    customer_id  INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
    tag_id       INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (customer_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS customer_tags_by_tag ON customer_tags(tag_id);
CREATE TABLE IF NOT EXISTS orders (
    id            INTEGER PRIMARY KEY,
    customer_id   INTEGER REFERENCES customers(id) ON DELETE SET NULL,
    amount_cents  INTEGER NOT NULL CHECK (amount_cents >= 0),
    status        TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'shipped', 'cancelled', 'refunded')),
    placed_at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS orders_by_customer ON orders(customer_id);
CREATE INDEX IF NOT EXISTS orders_by_placed_at ON orders(placed_at);

-- customers ------------------------------------------------------------------
INSERT INTO customers (id, name, email, signed_up_at)
WITH RECURSIVE
squash(id, s) AS (
    SELECT id, trim(full_name) FROM contacts
    UNION ALL
    SELECT id, replace(s, '  ', ' ') FROM squash WHERE instr(s, '  ') > 0
),
names(id, name) AS (SELECT id, s FROM squash WHERE instr(s, '  ') = 0),
mails(id, e) AS (SELECT id, NULLIF(lower(trim(email)), '') FROM contacts),
ranked(id, e, rn) AS (
    SELECT id, e, ROW_NUMBER() OVER (PARTITION BY e ORDER BY id) FROM mails
)
SELECT c.id,
       n.name,
       CASE WHEN r.e IS NOT NULL AND r.rn = 1 THEN r.e END,
       CASE
           WHEN c.signup_ts IS NULL THEN NULL
           WHEN c.signup_ts > 100000000000 THEN datetime(c.signup_ts / 1000, 'unixepoch')
           ELSE datetime(c.signup_ts, 'unixepoch')
       END
FROM contacts c
JOIN names n ON n.id = c.id
JOIN ranked r ON r.id = c.id
ORDER BY c.id;

-- tags -----------------------------------------------------------------------
CREATE TEMP TABLE migrate_tags (customer_id INTEGER NOT NULL, name TEXT NOT NULL);

INSERT INTO migrate_tags (customer_id, name)
WITH RECURSIVE
src(cid, rest) AS (
    SELECT id, replace(tags, ';', ',') || ',' FROM contacts WHERE tags IS NOT NULL
),
split(cid, piece, rest) AS (
    SELECT cid, NULL, rest FROM src
    UNION ALL
    SELECT cid, substr(rest, 1, instr(rest, ',') - 1), substr(rest, instr(rest, ',') + 1)
    FROM split WHERE rest <> ''
),
cleaned(cid, t) AS (
    SELECT cid, trim(replace(replace(lower(piece), '_', ' '), '-', ' '))
    FROM split WHERE piece IS NOT NULL
),
squash(cid, t) AS (
    SELECT cid, t FROM cleaned
    UNION ALL
    SELECT cid, replace(t, '  ', ' ') FROM squash WHERE instr(t, '  ') > 0
)
SELECT DISTINCT cid, replace(t, ' ', '-') FROM squash WHERE instr(t, '  ') = 0 AND t <> '';

INSERT INTO tags (id, name)
SELECT ROW_NUMBER() OVER (ORDER BY name), name
FROM (SELECT DISTINCT name FROM migrate_tags);

INSERT INTO customer_tags (customer_id, tag_id)
SELECT m.customer_id, t.id
FROM migrate_tags m JOIN tags t ON t.name = m.name
ORDER BY 1, 2;

DROP TABLE migrate_tags;

-- orders ---------------------------------------------------------------------
INSERT INTO orders (id, customer_id, amount_cents, status, placed_at)
SELECT p.id,
       (SELECT c.id FROM contacts c WHERE c.id = p.contact_id),
       CAST(round(CAST(replace(replace(trim(p.amount), '$', ''), ',', '') AS REAL) * 100) AS INTEGER),
       CASE
           WHEN p.status IS NULL OR trim(p.status) = '' THEN 'pending'
           WHEN lower(trim(p.status)) = 'canceled' THEN 'cancelled'
           ELSE lower(trim(p.status))
       END,
       datetime(p.ts, 'unixepoch')
FROM purchases p
ORDER BY p.id;

DROP TABLE purchases;
DROP TABLE contacts;

PRAGMA user_version = 4;

COMMIT;
SQL
# sanity check on a scratch copy
tmp=$(mktemp -d)
cp /app/crm.db "$tmp/crm.db"
sqlite3 -bail "$tmp/crm.db" < /app/migrate.sql
sqlite3 -bail "$tmp/crm.db" < /app/migrate.sql
rm -rf "$tmp"
