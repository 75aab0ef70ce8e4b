"""Hidden tests for the fix-inventory-bug scenario.

The package under test is /app/inventory. It is always executed in a
subprocess with a timeout so that a broken or hanging package fails the test
instead of blocking the verifier.
"""
import json
import os
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

APP_DIR = "/app"
SHIPPED_DATA = "/app/data/warehouses"
TIMEOUT = 30


def run_cli(*args, data_dir=None):
    cmd = [sys.executable, "-m", "inventory"]
    if data_dir is not None:
        cmd += ["--data-dir", data_dir]
    cmd += list(args)
    env = dict(os.environ, PYTHONPATH=APP_DIR, PYTHONDONTWRITEBYTECODE="1")
    return agent_run.run(
        cmd, cwd=APP_DIR, env=env, capture_output=True, text=True, timeout=TIMEOUT
    )


def run_python(code):
    env = dict(os.environ, PYTHONPATH=APP_DIR, PYTHONDONTWRITEBYTECODE="1")
    return agent_run.run(
        [sys.executable, "-c", code],
        cwd=APP_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def make_data_dir(warehouses):
    """warehouses: {name: [(sku, name, qty, price_str), ...]} -> temp dir path."""
    root = tempfile.mkdtemp(prefix="inv-test-")
    for wh, rows in warehouses.items():
        with open(os.path.join(root, wh + ".csv"), "w", encoding="utf-8") as fh:
            fh.write("sku,name,quantity,unit_price\n")
            for sku, name, qty, price in rows:
                fh.write(f"{sku},{name},{qty},{price}\n")
    return root


def parse_list(stdout):
    lines = [l for l in stdout.splitlines() if l.strip()]
    assert lines, "list printed nothing"
    header = lines[0]
    rows = [l.split("\t") for l in lines[1:]]
    return header, rows


def parse_total(stdout):
    out = {}
    for line in stdout.splitlines():
        if ":" in line:
            k, v = line.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def show(sku, data_dir=None):
    res = run_cli("show", sku, data_dir=data_dir)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


# Data sets -----------------------------------------------------------------

def pagination_dir(n):
    rows = [(f"P-{i:02d}", f"Part {i}", i, "1.00") for i in range(1, n + 1)]
    # spread over two warehouses, no SKU shared
    return make_data_dir({"east": rows[::2], "west": rows[1::2]})


MERGE_DATA = {
    "alpha": [("k-10", "Hinge", 5, "2.50"), ("N-30", "Bracket", 3, "10.00")],
    "bravo": [("K-10 ", "Hinge", 7, "2.50"), ("M-20", "Latch", 4, "1.00")],
    "charlie": [(" K-10", "Hinge", 11, "2.50"), ("n-30", "Bracket", 9, "10.00")],
}

CENTS_DATA = {
    "north": [
        ("R-1", "Rivet", 7, "0.29"),
        ("R-2", "Clamp", 2, "9.95"),
        ("R-3", "Spacer", 4, "0.57"),
        ("R-4", "Vice", 3, "19.99"),
        ("R-5", "Anchor", 90, "4.35"),
        ("R-6", "Bench", 1, "1000.00"),
    ],
    "south": [("R-7", "Sealant", 34, "8.45")],
}


# Pagination ----------------------------------------------------------------

def test_list_shipped_data_third_page_shows_last_item():
    res = run_cli("list", "--page", "3", data_dir=SHIPPED_DATA)
    assert res.returncode == 0, res.stderr
    header, rows = parse_list(res.stdout)
    assert header == "Page 3 of 3 (21 items)"
    assert [r[0] for r in rows] == ["WS-2002"]


def test_list_page_count_includes_single_leftover_item():
    d = pagination_dir(7)
    res = run_cli("list", "--per-page", "3", data_dir=d)
    assert res.returncode == 0, res.stderr
    header, rows = parse_list(res.stdout)
    assert header == "Page 1 of 3 (7 items)"
    assert [r[0] for r in rows] == ["P-01", "P-02", "P-03"]


def test_list_pages_cover_every_item_exactly_once():
    d = pagination_dir(16)
    expected = [f"P-{i:02d}" for i in range(1, 17)]
    for per_page, pages in ((5, 4), (4, 4), (16, 1), (3, 6)):
        seen = []
        for page in range(1, pages + 1):
            res = run_cli("list", "--page", str(page), "--per-page", str(per_page), data_dir=d)
            assert res.returncode == 0, (per_page, page, res.stderr)
            header, rows = parse_list(res.stdout)
            assert header == f"Page {page} of {pages} (16 items)"
            seen += [r[0] for r in rows]
        assert seen == expected, per_page
        beyond = run_cli("list", "--page", str(pages + 1), "--per-page", str(per_page), data_dir=d)
        assert beyond.returncode != 0, f"page {pages + 1} should be out of range"


def test_paginate_api_reaches_last_single_item_page():
    code = (
        "import json\n"
        "from inventory import paginate\n"
        "out = []\n"
        "for n, per in ((11, 5), (1, 1), (0, 3), (10, 3), (9, 3)):\n"
        "    items = list(range(n))\n"
        "    first = paginate(items, 1, per)\n"
        "    last = paginate(items, first.total_pages, per)\n"
        "    out.append([first.total_pages, list(last.items)])\n"
        "print(json.dumps(out))\n"
    )
    res = run_python(code)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == [
        [3, [10]],
        [1, [0]],
        [1, []],
        [4, [9]],
        [3, [6, 7, 8]],
    ]


# Merging -------------------------------------------------------------------

def test_show_sums_quantity_across_warehouses_case_insensitive():
    d = make_data_dir(MERGE_DATA)
    item = show("k-10", data_dir=d)
    assert item["sku"] == "K-10"
    assert item["quantity"] == 23
    assert item["warehouses"] == ["alpha", "bravo", "charlie"]
    assert item["value"] == "57.50"
    other = show("N-30", data_dir=d)
    assert other["quantity"] == 12
    assert other["warehouses"] == ["alpha", "charlie"]


def test_total_units_sum_all_warehouses():
    d = make_data_dir(MERGE_DATA)
    res = run_cli("total", data_dir=d)
    assert res.returncode == 0, res.stderr
    totals = parse_total(res.stdout)
    assert totals.get("Items") == "3"
    assert totals.get("Total units") == "39"
    assert totals.get("Total value") == "181.50"


def test_show_shipped_sku_merged_quantity():
    item = show("DR-5001", data_dir=SHIPPED_DATA)
    assert item["quantity"] == 75
    assert item["warehouses"] == ["bristol", "glasgow"]
    hammer = show("hm-9001", data_dir=SHIPPED_DATA)
    assert hammer["quantity"] == 61
    assert hammer["warehouses"] == ["bristol", "glasgow", "leeds"]


# Money ---------------------------------------------------------------------

def test_show_line_value_is_exact_cents():
    d = make_data_dir(CENTS_DATA)
    expected = {
        "R-1": "2.03",
        "R-2": "19.90",
        "R-3": "2.28",
        "R-4": "59.97",
        "R-5": "391.50",
        "R-6": "1000.00",
        "R-7": "287.30",
    }
    got = {sku: show(sku, data_dir=d)["value"] for sku in expected}
    assert got == expected


def test_total_value_is_exact_sum_of_cents():
    d = make_data_dir(CENTS_DATA)
    res = run_cli("total", data_dir=d)
    assert res.returncode == 0, res.stderr
    totals = parse_total(res.stdout)
    assert totals.get("Total units") == "141"
    assert totals.get("Total value") == "1762.98"


def test_total_shipped_data_matches_finance():
    res = run_cli("total", data_dir=SHIPPED_DATA)
    assert res.returncode == 0, res.stderr
    totals = parse_total(res.stdout)
    assert totals == {"Items": "21", "Total units": "834", "Total value": "7021.93"}


def test_default_data_dir_total_and_shipped_value():
    res = run_cli("total")
    assert res.returncode == 0, res.stderr
    assert parse_total(res.stdout).get("Total value") == "7021.93"
    assert show("WS-2002")["value"] == "4.35"
