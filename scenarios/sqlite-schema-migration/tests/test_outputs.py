"""Hidden tests for the sqlite-schema-migration scenario.

/app/migrate.sql is applied with `sqlite3 -bail DB < /app/migrate.sql` (in a
subprocess with a timeout) to fresh copies of the shipped version-3 database
and to other version-3 databases generated deterministically below. The
resulting schema is inspected with PRAGMAs and the data is compared with the
expected version-4 rows computed here in plain Python from the v3 rows.
"""
import datetime
import os
import shutil
import sqlite3
import tempfile
from decimal import Decimal

import pytest

SHIPPED_DB = "/app/crm.db"
SCRIPT = "/app/migrate.sql"
TIMEOUT = 60
V4_TABLES = ["customers", "customer_tags", "orders", "tags"]

# ---------------------------------------------------------------------------
# Deterministic v3 data generator.
# ---------------------------------------------------------------------------
import random
import trl_agent_run as agent_run

V3_SCHEMA = """
CREATE TABLE contacts (
    id         INTEGER PRIMARY KEY,
    full_name  TEXT NOT NULL,
    email      TEXT,
    tags       TEXT,
    signup_ts  INTEGER
);
CREATE TABLE purchases (
    id          INTEGER PRIMARY KEY,
    contact_id  INTEGER,
    amount      TEXT NOT NULL,
    status      TEXT,
    ts          INTEGER NOT NULL
);
CREATE INDEX purchases_contact ON purchases(contact_id);
PRAGMA user_version = 3;
"""

PROFILES = {
    "shipped": dict(seed=4242, contacts=64, purchases=170,
                    first=["Ana", "Bruno", "Chloe", "Dmitri", "Elif", "Femi", "Greta", "Hiro", "Ines", "Jonas"],
                    last=["Silva", "Novak", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Varga"]),
    "variant": dict(seed=777013, contacts=71, purchases=205,
                    first=["Amara", "Bo", "Cyrus", "Dalia", "Emre", "Farah", "Gus", "Hana", "Ivo"],
                    last=["Kowalski", "Mensah", "Ortiz", "Pereira", "Quinn", "Rossi"]),
}

TAG_POOL = ["VIP", "vip", " Vip ", "Key   Account", "key_account", "Key-Account", "wholesale",
            "Retail", "b2b", "B2B ", "newsletter", "News Letter", " early-adopter ",
            "early_adopter", "-beta-", "Beta", "churn risk", "churn  risk", "partner",
            "2024 cohort", "x", "Trade  _ Show", "  ", ""]
SEPARATORS = [",", ";", " , ", " ;", ";;", ",,", ", "]
STATUSES = ["paid", "PAID", " Paid ", "shipped", "Shipped ", "pending", " pending", None, "",
            "  ", "cancelled", "Canceled", "CANCELED", "refunded", "Refunded"]


def _amount(rng):
    cents = rng.randint(0, 250000)
    kind = rng.randrange(7)
    whole, frac = divmod(cents, 100)
    if kind == 0:
        return f"{whole}.{frac:02d}"
    if kind == 1:
        return f" ${whole}.{frac:02d} "
    if kind == 2:
        return f"${whole:,}.{frac:02d}"
    if kind == 3:
        return f"{whole}" if frac == 0 else f"{whole}.{frac:02d}".rstrip("0")
    if kind == 4:
        return f"  {whole:,}"
    if kind == 5:
        return f"{whole}.{frac // 10}"
    return f"${whole}"


def build_v3(profile, bad_status=False):
    p = PROFILES[profile]
    rng = random.Random(p["seed"])
    ids = sorted(rng.sample(range(1, p["contacts"] * 4), p["contacts"]))
    contacts = []
    emails_so_far = []
    for cid in ids:
        first, last = rng.choice(p["first"]), rng.choice(p["last"])
        name = (" " * rng.choice([0, 0, 0, 1, 2])) + first + (" " * rng.choice([1, 1, 1, 2, 4, 7])) + last \
            + (" " * rng.choice([0, 0, 1, 3]))
        r = rng.random()
        if r < 0.08:
            email = None
        elif r < 0.13:
            email = rng.choice(["", "   "])
        elif r < 0.25 and emails_so_far:
            base = rng.choice(emails_so_far)
            email = rng.choice([base.upper(), " " + base + " ", base.title()])
        else:
            base = f"{first}.{last}{cid}@example.test"
            emails_so_far.append(base.lower())
            email = rng.choice([base, base.lower(), base.upper(), "  " + base])
        r = rng.random()
        if r < 0.12:
            tags = None
        else:
            k = rng.randint(0, 4)
            tags = ""
            for i in range(k):
                if i:
                    tags += rng.choice(SEPARATORS)
                tags += rng.choice(TAG_POOL)
            if rng.random() < 0.2:
                tags += rng.choice(SEPARATORS)
        r = rng.random()
        if r < 0.1:
            signup = None
        elif r < 0.28:
            signup = rng.randint(1546300800, 1735689599) * 1000 + rng.randint(0, 999)
        else:
            signup = rng.randint(1546300800, 1735689599)
        contacts.append((cid, name, email, tags, signup))
    # fixed edge cases
    contacts[0] = (contacts[0][0], "  Zoë   Ångström ", "  MixedCase@Example.TEST ", "VIP;vip , Vip;;", 86400)
    contacts[1] = (contacts[1][0], contacts[1][1], "mixedcase@example.test", "news letter,newsletter;News-Letter",
                   1700000000123)
    contacts[2] = (contacts[2][0], contacts[2][1], None, " ; ,, ", 0)

    pids = sorted(rng.sample(range(1, p["purchases"] * 3), p["purchases"]))
    purchases = []
    for pid in pids:
        r = rng.random()
        if r < 0.1:
            contact = None
        elif r < 0.2:
            contact = rng.choice([c for c in range(1, p["contacts"] * 4 + 50) if c not in ids])
        else:
            contact = rng.choice(ids)
        purchases.append((pid, contact, _amount(rng), rng.choice(STATUSES),
                          rng.randint(1546300800, 1735689599)))
    purchases[0] = (purchases[0][0], ids[0], "$1,299.99", " Canceled ", 1704067199)
    purchases[1] = (purchases[1][0], ids[0], "0.05", None, 1704067200)
    if bad_status:
        k = len(purchases) * 2 // 3
        purchases[k] = purchases[k][:3] + (" Lost ",) + purchases[k][4:]
    return contacts, purchases


def write_v3(path, contacts, purchases):

    con = sqlite3.connect(path)
    con.executescript(V3_SCHEMA)
    con.executemany("INSERT INTO contacts VALUES (?,?,?,?,?)", contacts)
    con.executemany("INSERT INTO purchases VALUES (?,?,?,?,?)", purchases)
    con.commit()
    con.close()


# ---------------------------------------------------------------------------
# Helpers.
# ---------------------------------------------------------------------------

def copy_shipped():
    d = tempfile.mkdtemp(prefix="crm-")
    path = os.path.join(d, "crm.db")
    shutil.copyfile(SHIPPED_DB, path)
    return path


def make_db(profile, bad_status=False):
    d = tempfile.mkdtemp(prefix=f"crm-{profile}-")
    path = os.path.join(d, "crm.db")
    contacts, purchases = build_v3(profile, bad_status=bad_status)
    write_v3(path, contacts, purchases)
    return path


def apply(db):
    assert os.path.isfile(SCRIPT), f"{SCRIPT} is missing"
    with open(SCRIPT, "rb") as fh:
        return agent_run.run(["sqlite3", "-bail", db], stdin=fh, capture_output=True,
                              timeout=TIMEOUT, cwd=os.path.dirname(db))


def must_apply(db):
    res = apply(db)
    assert res.returncode == 0, f"migration failed: {res.stderr.decode(errors='replace')[-2000:]}"


def connect(db):
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)


def read_v3(db):
    con = connect(db)
    try:
        contacts = con.execute("SELECT id, full_name, email, tags, signup_ts FROM contacts ORDER BY id").fetchall()
        purchases = con.execute("SELECT id, contact_id, amount, status, ts FROM purchases ORDER BY id").fetchall()
    finally:
        con.close()
    return contacts, purchases


def dump(db):
    """Everything observable about a database, in a comparable form."""
    con = connect(db)
    try:
        out = {"user_version": con.execute("PRAGMA user_version").fetchone()[0]}
        out["schema"] = sorted(con.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master").fetchall(), key=repr)
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name").fetchall():
            out[name] = sorted(con.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
        return out
    finally:
        con.close()


def rows(db, sql):
    con = connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


# ---------------------------------------------------------------------------
# Expected version-4 content, computed from the v3 rows.
# ---------------------------------------------------------------------------

def _utc(ts):
    return (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=ts)).strftime("%Y-%m-%d %H:%M:%S")


def _tag(piece):
    words = [w for w in piece.lower().replace("_", " ").replace("-", " ").split(" ") if w]
    return "-".join(words)


def expected_v4(contacts, purchases):
    customers, seen = [], set()
    for cid, full_name, email, _tags, signup in contacts:
        name = " ".join(w for w in full_name.split(" ") if w)
        e = (email or "").strip(" ").lower() or None
        if e is not None:
            if e in seen:
                e = None
            else:
                seen.add(e)
        if signup is None:
            when = None
        else:
            when = _utc(signup // 1000 if signup > 100_000_000_000 else signup)
        customers.append((cid, name, e, when))
    per_customer = {}
    for cid, _n, _e, tags, _s in contacts:
        if tags is None:
            continue
        names = {_tag(p) for p in tags.replace(";", ",").split(",")} - {""}
        if names:
            per_customer[cid] = names
    all_tags = sorted(set().union(*per_customer.values()))
    tag_id = {name: i for i, name in enumerate(all_tags, 1)}
    tags = [(i, name) for name, i in tag_id.items()]
    links = sorted((cid, tag_id[n]) for cid, names in per_customer.items() for n in names)
    ids = {c[0] for c in contacts}
    orders = []
    for pid, contact, amount, status, ts in purchases:
        cents = int(Decimal(amount.strip(" ").replace("$", "").replace(",", "")) * 100)
        st = (status or "").strip(" ").lower() or "pending"
        st = "cancelled" if st == "canceled" else st
        orders.append((pid, contact if contact in ids else None, cents, st, _utc(ts)))
    return {"customers": customers, "tags": sorted(tags), "customer_tags": links, "orders": orders}


def actual_v4(db):
    return {
        "customers": rows(db, "SELECT id, name, email, signed_up_at FROM customers ORDER BY id"),
        "tags": rows(db, "SELECT id, name FROM tags ORDER BY id"),
        "customer_tags": rows(db, "SELECT customer_id, tag_id FROM customer_tags ORDER BY 1, 2"),
        "orders": rows(db, "SELECT id, customer_id, amount_cents, status, placed_at FROM orders ORDER BY id"),
    }


def compare(db, source_db, table):
    exp = expected_v4(*read_v3(source_db))[table]
    got = actual_v4(db)[table]
    diffs = [(g, e) for g, e in zip(got, exp) if g != e][:4]
    assert got == exp, f"{table}: {len(got)} rows vs {len(exp)} expected; first differences {diffs}"


@pytest.fixture(scope="module")
def shipped_pair():
    source = copy_shipped()
    target = copy_shipped()
    must_apply(target)
    return source, target


# ---------------------------------------------------------------------------
# Tests.
# ---------------------------------------------------------------------------

def test_migration_succeeds_and_leaves_exactly_the_v4_objects(shipped_pair):
    _source, db = shipped_pair
    assert rows(db, "PRAGMA user_version") == [(4,)]
    names = rows(db, "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1, 2")
    assert names == [("index", "customer_tags_by_tag"), ("index", "orders_by_customer"),
                     ("index", "orders_by_placed_at"), ("table", "customer_tags"),
                     ("table", "customers"), ("table", "orders"), ("table", "tags")]
    assert rows(db, "PRAGMA integrity_check") == [("ok",)]
    assert rows(db, "PRAGMA foreign_key_check") == []


def test_v4_columns_match_the_specification(shipped_pair):
    _source, db = shipped_pair
    info = {t: [r[1:] for r in rows(db, f"PRAGMA table_info({t})")] for t in V4_TABLES}
    assert info["customers"] == [("id", "INTEGER", 0, None, 1), ("name", "TEXT", 1, None, 0),
                                 ("email", "TEXT", 0, None, 0), ("signed_up_at", "TEXT", 0, None, 0)]
    assert info["tags"] == [("id", "INTEGER", 0, None, 1), ("name", "TEXT", 1, None, 0)]
    assert info["customer_tags"] == [("customer_id", "INTEGER", 1, None, 1), ("tag_id", "INTEGER", 1, None, 2)]
    assert info["orders"] == [("id", "INTEGER", 0, None, 1), ("customer_id", "INTEGER", 0, None, 0),
                              ("amount_cents", "INTEGER", 1, None, 0), ("status", "TEXT", 1, None, 0),
                              ("placed_at", "TEXT", 1, None, 0)]


def test_v4_foreign_keys_indexes_and_without_rowid(shipped_pair):
    _source, db = shipped_pair
    fks = {t: sorted((r[2], r[3], r[4], r[6]) for r in rows(db, f"PRAGMA foreign_key_list({t})"))
           for t in V4_TABLES}
    assert fks == {"customers": [], "tags": [],
                   "customer_tags": [("customers", "customer_id", "id", "CASCADE"),
                                     ("tags", "tag_id", "id", "CASCADE")],
                   "orders": [("customers", "customer_id", "id", "SET NULL")]}

    def index_cols(name):
        return [r[2] for r in rows(db, f"PRAGMA index_info('{name}')")]

    assert index_cols("customer_tags_by_tag") == ["tag_id"]
    assert index_cols("orders_by_customer") == ["customer_id"]
    assert index_cols("orders_by_placed_at") == ["placed_at"]
    uniques = {t: sorted(tuple(index_cols(r[1])) for r in rows(db, f"PRAGMA index_list({t})") if r[2] and r[3] == "u")
               for t in ("customers", "tags")}
    assert uniques == {"customers": [("email",)], "tags": [("name",)]}
    wr = {r[1]: r[4] for r in rows(db, "PRAGMA table_list") if r[1] in V4_TABLES}
    assert wr == {"customers": 0, "tags": 0, "customer_tags": 1, "orders": 0}


def test_v4_constraints_are_enforced(shipped_pair):
    _source, migrated = shipped_pair
    path = os.path.join(tempfile.mkdtemp(prefix="crm-constraints-"), "crm.db")
    shutil.copyfile(migrated, path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = ON")
    bad = [
        "INSERT INTO tags (name) VALUES ('Bad Tag')",
        "INSERT INTO tags (name) VALUES ('')",
        "INSERT INTO tags (name) VALUES ('vip')",
        "INSERT INTO orders (customer_id, amount_cents, status, placed_at) VALUES (NULL, -1, 'paid', '2024-01-01 00:00:00')",
        "INSERT INTO orders (customer_id, amount_cents, status, placed_at) VALUES (NULL, 5, 'lost', '2024-01-01 00:00:00')",
        "INSERT INTO orders (customer_id, amount_cents, status, placed_at) VALUES (987654, 5, 'paid', '2024-01-01 00:00:00')",
        "INSERT INTO customers (name, email) VALUES ('Dup', 'mixedcase@example.test')",
        "INSERT INTO customer_tags VALUES (2, 1), (2, 1)",
    ]
    accepted = []
    for sql in bad:
        try:
            con.execute(sql)
            accepted.append(sql)
        except sqlite3.IntegrityError:
            pass
        con.rollback()
    assert accepted == [], f"constraint not enforced for: {accepted}"
    # ON DELETE actions
    cid = con.execute("SELECT customer_id FROM orders WHERE customer_id IN "
                      "(SELECT customer_id FROM customer_tags) LIMIT 1").fetchone()[0]
    con.execute("DELETE FROM customers WHERE id = ?", (cid,))
    assert con.execute("SELECT count(*) FROM customer_tags WHERE customer_id = ?", (cid,)).fetchone()[0] == 0
    assert con.execute("SELECT count(*) FROM orders WHERE customer_id = ?", (cid,)).fetchone()[0] == 0
    con.close()


def test_customers_keep_ids_and_are_normalised(shipped_pair):
    source, db = shipped_pair
    compare(db, source, "customers")


def test_tags_are_split_normalised_and_numbered_alphabetically(shipped_pair):
    source, db = shipped_pair
    compare(db, source, "tags")
    compare(db, source, "customer_tags")


def test_orders_keep_ids_and_are_normalised(shipped_pair):
    source, db = shipped_pair
    compare(db, source, "orders")


def test_other_v3_database_migrates_correctly():
    source = make_db("variant")
    db = make_db("variant")
    must_apply(db)
    assert rows(db, "PRAGMA user_version") == [(4,)]
    assert actual_v4(db) == expected_v4(*read_v3(source))
    assert rows(db, "PRAGMA foreign_key_check") == []


def test_rerun_on_v4_database_is_a_no_op_and_keeps_new_rows():
    db = make_db("variant")
    must_apply(db)
    once = dump(db)
    must_apply(db)
    assert dump(db) == once, "running the migration a second time changed the database"
    con = sqlite3.connect(db)
    con.execute("INSERT INTO customers (id, name, email, signed_up_at) VALUES (100000, 'New Person', 'new@example.test', '2025-01-01 10:00:00')")
    con.execute("INSERT INTO tags (id, name) VALUES (500, 'added-later')")
    con.execute("INSERT INTO customer_tags VALUES (100000, 500)")
    con.execute("INSERT INTO orders (id, customer_id, amount_cents, status, placed_at) VALUES (100000, 100000, 4200, 'paid', '2025-01-02 00:00:00')")
    con.commit()
    con.close()
    before = dump(db)
    must_apply(db)
    assert dump(db) == before, "running the migration on a v4 database with new rows changed it"


def test_failed_migration_leaves_v3_database_untouched():
    db = make_db("variant", bad_status=True)
    before = dump(db)
    res = apply(db)
    assert res.returncode != 0, "a purchase with status 'Lost' cannot be migrated; the script must fail"
    assert dump(db) == before, "the failed migration left the database partially changed"
