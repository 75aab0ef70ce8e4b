"""Hidden tests for the sqlite-orders-analytics scenario.

Every query in /app/queries is executed (in a subprocess with a timeout,
read-only) against
  * a copy of the shipped database /app/shop.db, and
  * a second database with the same schema but different data, generated
    deterministically below,
and its rows are compared, in order, with answers computed in plain Python
from the raw table contents.
"""
import datetime
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

SHIPPED_DB = "/app/shop.db"
QUERY_DIR = "/app/queries"
TIMEOUT = 30

SCHEMA = """
CREATE TABLE customers (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    email       TEXT,
    city        TEXT,
    signup_date TEXT NOT NULL
);
CREATE TABLE products (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    category    TEXT NOT NULL,
    price_cents INTEGER NOT NULL
);
CREATE TABLE orders (
    id          INTEGER PRIMARY KEY,
    customer_id INTEGER REFERENCES customers(id),
    ordered_at  TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'cancelled', 'refunded'))
);
CREATE TABLE order_items (
    order_id         INTEGER NOT NULL REFERENCES orders(id),
    product_id       INTEGER NOT NULL REFERENCES products(id),
    quantity         INTEGER NOT NULL CHECK (quantity > 0),
    unit_price_cents INTEGER NOT NULL,
    discount_cents   INTEGER,
    PRIMARY KEY (order_id, product_id)
);
"""

# ---------------------------------------------------------------------------
# Deterministic data generation (used for the hidden variant database).
# ---------------------------------------------------------------------------

PROFILES = {
    "variant": dict(
        seed=90817,
        cities=["Oslo", "Bergen", "Aarhus", "Malmo", "Turku"],
        first=["Ines", "Jonas", "Mia", "Per", "Sofie", "Lars", "Eva", "Nils", "Ida", "Ole"],
        last=["Berg", "Dahl", "Lund", "Holm", "Vik", "Moe"],
        categories=["audio", "books", "games", "office", "outdoor", "pets"],
        n_customers=34,
        n_products=16,
        n_orders=230,
        empty_month=11,
        cancelled_only_month=5,
    ),
    "shipped": dict(
        seed=24601,
        cities=["Lyon", "Porto", "Gdansk", "Tartu"],
        first=["Ana", "Bruno", "Clara", "Dario", "Elena", "Filip", "Greta", "Hugo", "Irene"],
        last=["Silva", "Nowak", "Tamm", "Martin", "Costa", "Kask", "Dubois"],
        categories=["garden", "kitchen", "lighting", "tools", "toys"],
        n_customers=42,
        n_products=15,
        n_orders=260,
        empty_month=8,
        cancelled_only_month=2,
    ),
}


def _ts(day, rng):
    return f"{day.isoformat()} {rng.randint(0, 23):02d}:{rng.randint(0, 59):02d}:{rng.randint(0, 59):02d}"


def build_dataset(profile):
    p = PROFILES[profile]
    rng = random.Random(p["seed"])
    cities = p["cities"]
    zero_cat = p["categories"][-1]

    customers = []
    for cid in range(1, p["n_customers"] + 1):
        name = f"{rng.choice(p['first'])} {rng.choice(p['last'])}"
        city = None if rng.random() < 0.12 else rng.choice(cities)
        email = None if rng.random() < 0.1 else f"user{cid}@example.test"
        signup = datetime.date(2023, 1, 1) + datetime.timedelta(days=rng.randint(0, 500))
        customers.append((cid, name, email, city, signup.isoformat()))
    # Two customers sharing a name: one will have orders, one will not.
    dup_name = customers[0][1]
    customers[5] = (customers[5][0], dup_name) + customers[5][2:]
    no_order_ids = set(rng.sample([c[0] for c in customers[1:]], 6)) | {customers[5][0]}
    no_order_ids.discard(customers[0][0])
    # ... and a third customer of that name without orders (ties on name in q1).
    twin = max(no_order_ids)
    customers[twin - 1] = (twin, dup_name) + customers[twin - 1][2:]

    products = []
    for pid in range(1, p["n_products"] + 1):
        cat = p["categories"][(pid - 1) % len(p["categories"])]
        products.append((pid, f"{cat.title()} item {pid:02d}", cat, rng.randint(3, 120) * 25))
    price = {pr[0]: pr[3] for pr in products}
    sellable = [pr[0] for pr in products]
    non_zero_cat = [pr[0] for pr in products if pr[2] != zero_cat]

    ordering_customers = [c[0] for c in customers if c[0] not in no_order_ids]
    orders, items = [], []
    start = datetime.date(2023, 10, 1)
    oid = 1000

    def add_order(customer_id, ordered_at, status, lines):
        nonlocal oid
        oid += 1
        orders.append((oid, customer_id, ordered_at, status))
        for prod, qty, disc in lines:
            items.append((oid, prod, qty, price[prod], disc))
        return oid

    def random_lines(pool, k=None):
        k = k or rng.randint(1, 4)
        chosen = rng.sample(pool, k)
        out = []
        for prod in chosen:
            qty = rng.randint(1, 5)
            disc = None
            if rng.random() < 0.3:
                disc = rng.randint(1, 4) * 50
                disc = min(disc, qty * price[prod] - 1)
            out.append((prod, qty, disc))
        return out

    for _ in range(p["n_orders"]):
        day = start + datetime.timedelta(days=rng.randint(0, 480))
        if day.year == 2024 and day.month == p["empty_month"]:
            continue
        status = rng.choices(["completed", "pending", "cancelled", "refunded"], [70, 12, 12, 6])[0]
        if day.year == 2024 and day.month == p["cancelled_only_month"]:
            status = "cancelled"
        customer = None if rng.random() < 0.1 else rng.choice(ordering_customers)
        in_q1 = datetime.date(2024, 1, 1) <= day < datetime.date(2024, 4, 1)
        pool = non_zero_cat if (status == "completed" and in_q1) else sellable
        lines = random_lines(pool)
        if status in ("pending", "cancelled") and rng.random() < 0.15:
            lines = []  # order without lines
        add_order(customer, _ts(day, rng), status, lines)

    # Customers whose only orders are not completed still count as having ordered.
    for status, ts, lines in (("cancelled", "2024-10-10 10:10:10", random_lines(sellable, 2)),
                              ("pending", "2024-07-04 12:00:00", [])):
        cid = len(customers) + 1
        customers.append((cid, f"{rng.choice(p['first'])} {rng.choice(p['last'])}",
                          f"user{cid}@example.test", rng.choice(cities), "2024-01-15"))
        add_order(cid, ts, status, lines)

    # Quarter boundaries for Q2 (completed orders with lines).
    for ts in ("2024-01-01 00:00:00", "2024-03-31 23:59:59", "2024-04-01 00:00:00",
               "2023-12-31 23:59:59", "2024-03-31 12:00:00"):
        add_order(rng.choice(ordering_customers), ts, "completed", random_lines(non_zero_cat))
    # Zero-category products sold only outside completed Q1 orders.
    zero_prods = [pr[0] for pr in products if pr[2] == zero_cat]
    add_order(rng.choice(ordering_customers), "2024-02-14 10:00:00"
              if p["cancelled_only_month"] != 2 else "2024-03-14 10:00:00",
              "pending", [(zero_prods[0], 2, None)])
    add_order(None, "2024-06-30 23:59:59", "completed", [(zero_prods[-1], 1, 100)])

    # Q3: a tie for the top spender of one city, lower id has the later name.
    def spend_by_customer():
        status_of = {o[0]: o for o in orders}
        out = {}
        for (o_id, prod, qty, unit, disc) in items:
            o = status_of[o_id]
            if o[3] == "completed" and o[1] is not None:
                out[o[1]] = out.get(o[1], 0) + qty * unit - (disc or 0)
        return out

    tie_city = cities[1]
    spends = spend_by_customer()
    city_max = max([s for c, s in spends.items() if customers[c - 1][3] == tie_city] or [0])
    top_prod = max(non_zero_cat, key=lambda x: price[x])
    qty = city_max // price[top_prod] + 3
    base = len(customers)
    customers.append((base + 1, "Zoe Zimmer", f"user{base + 1}@example.test", tie_city, "2023-05-05"))
    customers.append((base + 2, "Adam Abel", None, tie_city, "2023-06-06"))
    add_order(base + 1, "2023-11-11 11:11:11", "completed", [(top_prod, qty, 500)])
    add_order(base + 2, "2024-09-09 09:09:09", "completed", [(top_prod, qty - 1, None), (non_zero_cat[0], 1, None)])
    # make the two spends exactly equal
    spends = spend_by_customer()
    diff = spends[base + 1] - spends[base + 2]
    last = items[-1]
    new_disc = (last[4] or 0) - diff
    if new_disc < 0:
        # increase quantity of the first line of customer base+2 instead
        raise AssertionError("tie construction failed")
    items[-1] = last[:4] + (new_disc if new_disc else None,)
    spends = spend_by_customer()
    assert spends[base + 1] == spends[base + 2]

    # Q5: force ties at dense ranks 2 and 3 (guest orders outside every date filter),
    # so that RANK(), ROW_NUMBER() and LIMIT 3 all give different answers.
    def completed_units():
        status_of = {o[0]: o[3] for o in orders}
        units = {}
        for (o_id, prod, q, unit, disc) in items:
            if status_of[o_id] == "completed":
                units[prod] = units.get(prod, 0) + q
        return units

    for target, day in ((1, "2022-12-24 08:00:00"), (2, "2022-12-26 08:00:00")):
        units = completed_units()
        distinct = sorted(set(units.values()), reverse=True)
        bump = sorted(pid for pid, u in units.items() if u == distinct[target + 1])[0]
        add_order(None, day, "completed", [(bump, distinct[target] - units[bump], None)])

    return {"customers": customers, "products": products, "orders": orders, "order_items": items}


def write_db(path, data):
    con = sqlite3.connect(path)
    con.executescript(SCHEMA)
    con.executemany("INSERT INTO customers VALUES (?,?,?,?,?)", data["customers"])
    con.executemany("INSERT INTO products VALUES (?,?,?,?)", data["products"])
    con.executemany("INSERT INTO orders VALUES (?,?,?,?)", data["orders"])
    con.executemany("INSERT INTO order_items VALUES (?,?,?,?,?)", data["order_items"])
    con.commit()
    con.close()


def read_db(path):
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {
            t: con.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall()
            for t in ("customers", "products", "orders", "order_items")
        }
    finally:
        con.close()


# ---------------------------------------------------------------------------
# Reference answers computed in plain Python.
# ---------------------------------------------------------------------------

def _line_net(item):
    _, _, qty, unit, disc = item
    return qty * unit - (disc or 0)


def expected_q1(d):
    has_orders = {o[1] for o in d["orders"] if o[1] is not None}
    rows = [(c[0], c[1]) for c in d["customers"] if c[0] not in has_orders]
    return sorted(rows, key=lambda r: (r[1], r[0]))


def expected_q2(d):
    cat = {p[0]: p[2] for p in d["products"]}
    ok = {
        o[0]
        for o in d["orders"]
        if o[3] == "completed" and "2024-01-01 00:00:00" <= o[2] < "2024-04-01 00:00:00"
    }
    rev = {c: 0 for c in cat.values()}
    for it in d["order_items"]:
        if it[0] in ok:
            rev[cat[it[1]]] += _line_net(it)
    return sorted(rev.items(), key=lambda kv: (-kv[1], kv[0]))


def expected_q3(d):
    completed = {o[0]: o[1] for o in d["orders"] if o[3] == "completed" and o[1] is not None}
    spend = {}
    for it in d["order_items"]:
        if it[0] in completed:
            cid = completed[it[0]]
            spend[cid] = spend.get(cid, 0) + _line_net(it)
    for cid in set(completed.values()):
        spend.setdefault(cid, 0)
    cust = {c[0]: c for c in d["customers"]}
    best = {}
    for cid, s in spend.items():
        city = cust[cid][3]
        if city is None:
            continue
        cur = best.get(city)
        if cur is None or s > cur[1] or (s == cur[1] and cid < cur[0]):
            best[city] = (cid, s)
    return [(city, cid, cust[cid][1], s) for city, (cid, s) in sorted(best.items())]


def expected_q4(d):
    lines_by_order = {}
    for it in d["order_items"]:
        lines_by_order.setdefault(it[0], []).append(it)
    rows = []
    for m in range(1, 13):
        prefix = f"2024-{m:02d}-"
        sel = [o for o in d["orders"] if o[2].startswith(prefix) and o[3] != "cancelled"]
        custs = {o[1] for o in sel if o[1] is not None}
        rev = sum(_line_net(it) for o in sel for it in lines_by_order.get(o[0], []))
        rows.append((f"2024-{m:02d}", len(sel), len(custs), rev))
    return rows


def expected_q5(d):
    completed = {o[0] for o in d["orders"] if o[3] == "completed"}
    units = {}
    for it in d["order_items"]:
        if it[0] in completed:
            units[it[1]] = units.get(it[1], 0) + it[2]
    distinct = sorted(set(units.values()), reverse=True)
    rank_of = {u: i + 1 for i, u in enumerate(distinct)}
    name = {p[0]: p[1] for p in d["products"]}
    rows = [(rank_of[u], pid, name[pid], u) for pid, u in units.items() if rank_of[u] <= 3]
    return sorted(rows, key=lambda r: (r[0], r[2], r[1]))


EXPECTED = {"q1": expected_q1, "q2": expected_q2, "q3": expected_q3, "q4": expected_q4, "q5": expected_q5}


# ---------------------------------------------------------------------------
# Running the agent's queries.
# ---------------------------------------------------------------------------

RUNNER = r"""
import json, sqlite3, sys
db, sql_path = sys.argv[1], sys.argv[2]
sql = open(sql_path, encoding="utf-8").read()
con = sqlite3.connect("file:" + db + "?mode=ro", uri=True)
cur = con.execute(sql)
print(json.dumps({"columns": [c[0] for c in cur.description or []], "rows": cur.fetchall()}))
"""


def run_query(name, db_path):
    sql_path = os.path.join(QUERY_DIR, f"{name}.sql")
    assert os.path.isfile(sql_path), f"{sql_path} is missing"
    res = agent_run.run(
        [sys.executable, "-c", RUNNER, db_path, sql_path],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    assert res.returncode == 0, f"{name}.sql failed:\n{res.stderr[-2000:]}"
    out = json.loads(res.stdout)
    return out["columns"], [tuple(r) for r in out["rows"]]


COLUMNS = {
    "q1": ["customer_id", "name"],
    "q2": ["category", "revenue_cents"],
    "q3": ["city", "customer_id", "name", "spend_cents"],
    "q4": ["month", "orders", "customers", "revenue_cents"],
    "q5": ["rank", "product_id", "name", "units"],
}


@pytest.fixture(scope="module")
def shipped_db():
    tmp = tempfile.mkdtemp(prefix="shop-shipped-")
    path = os.path.join(tmp, "shop.db")
    shutil.copyfile(SHIPPED_DB, path)
    return path


@pytest.fixture(scope="module")
def variant_db():
    tmp = tempfile.mkdtemp(prefix="shop-variant-")
    path = os.path.join(tmp, "shop.db")
    write_db(path, build_dataset("variant"))
    return path


def check(name, db_path):
    data = read_db(db_path)
    expected = EXPECTED[name](data)
    columns, rows = run_query(name, db_path)
    assert [c.lower() for c in columns] == COLUMNS[name], f"columns {columns}"
    assert rows == expected, (
        f"{name}: got {len(rows)} rows, expected {len(expected)}\n"
        f"first differences: {[(g, e) for g, e in zip(rows, expected) if g != e][:3]}"
    )


@pytest.mark.parametrize("db", ["shipped", "variant"])
def test_q1_customers_without_any_order_despite_guest_orders(db, request):
    check("q1", request.getfixturevalue(f"{db}_db"))


@pytest.mark.parametrize("db", ["shipped", "variant"])
def test_q2_q1_category_revenue_with_half_open_range_and_null_discounts(db, request):
    check("q2", request.getfixturevalue(f"{db}_db"))


@pytest.mark.parametrize("db", ["shipped", "variant"])
def test_q3_top_spender_per_city_ties_to_lowest_id(db, request):
    check("q3", request.getfixturevalue(f"{db}_db"))


@pytest.mark.parametrize("db", ["shipped", "variant"])
def test_q4_every_month_of_2024_including_empty_months(db, request):
    check("q4", request.getfixturevalue(f"{db}_db"))


@pytest.mark.parametrize("db", ["shipped", "variant"])
def test_q5_dense_rank_top_three_products_with_ties(db, request):
    check("q5", request.getfixturevalue(f"{db}_db"))


def test_queries_are_read_only_single_selects(variant_db):
    """Each file must run as one read-only statement and leave the data untouched."""
    before = read_db(variant_db)
    for name in COLUMNS:
        run_query(name, variant_db)
    assert read_db(variant_db) == before
