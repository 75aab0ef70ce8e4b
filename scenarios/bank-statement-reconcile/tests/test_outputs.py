"""Hidden tests for the bank-statement-reconcile scenario.

/app/out must hold the result for the shipped data, and /app/reconcile.py is
also run (in subprocesses with a timeout) on small hidden exports whose
expected results were worked out by hand, and on the shipped data, whose
expected result comes from the compact reference model below.
"""
import csv
import datetime
import io
import json
import os
import re
import sys
import tempfile

import pytest
import trl_agent_run as agent_run

PROGRAM = "/app/reconcile.py"
OUT = "/app/out"
BANK = "/app/data/bank.csv"
LEDGER = "/app/data/ledger.csv"
TIMEOUT = 60
HEADERS = {
    "matches.csv": "bank_row,entry_id,bank_date,ledger_date,amount,rule",
    "unmatched_bank.csv": "bank_row,date,description,amount",
    "unmatched_ledger.csv": "entry_id,date,payee,amount",
}
SUMMARY_KEYS = {"bank_rows", "ledger_entries", "void_entries", "matched", "matched_by_text",
                "matched_by_date", "unmatched_bank", "unmatched_ledger", "bank_total", "ledger_total",
                "difference", "unmatched_bank_total", "unmatched_ledger_total"}

# ---------------------------------------------------------------------------
# Reference model (used for the shipped data only).
# ---------------------------------------------------------------------------
STOP = set("CARD PAYMENT POS DD SO FPI FPO BGC TFR REF TO FROM LTD LIMITED PLC THE UK GB CO INC".split())


def _cents(s):
    s = s.strip()
    neg = s.startswith("(") and s.endswith(")")
    s = s.strip("()").strip()
    if s[:1] in "+-":
        neg, s = neg or s[0] == "-", s[1:]
    whole, _, frac = s.replace(",", "").partition(".")
    v = int(whole) * 100 + int((frac + "00")[:2])
    return -v if neg else v


def _money(c):
    return ("-" if c < 0 else "") + f"{abs(c) // 100}.{abs(c) % 100:02d}"


def _tokens(s):
    return {t for t in re.sub("[^A-Z0-9]", " ", s.upper()).split()
            if t not in STOP and not re.search("[0-9]", t)}


def model(bank_path, ledger_path, window=3):
    with open(bank_path, newline="", encoding="utf-8") as fh:
        bank = []
        for n, r in enumerate(csv.DictReader(fh), 1):
            amt = (_cents(r["Money In"]) if r["Money In"].strip() else 0) - \
                  (_cents(r["Money Out"]) if r["Money Out"].strip() else 0)
            d, m, y = map(int, r["Date"].strip().split("/"))
            bank.append((n, datetime.date(y, m, d), r["Description"].strip(), amt, _tokens(r["Description"])))
    with open(ledger_path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    voids = sum(1 for r in rows if r["status"].strip().lower() == "void")
    ledger = [(int(r["entry_id"]), datetime.date.fromisoformat(r["date"].strip()), r["payee"].strip(),
               _cents(r["amount"]), _tokens(r["payee"])) for r in rows if r["status"].strip().lower() != "void"]
    taken, pairs = set(), {}
    for rule in ("text", "date"):
        for n, bd, _desc, amt, bt in bank:
            if n in pairs:
                continue
            cands = []
            for eid, ld, _p, lamt, lt in ledger:
                diff = abs((ld - bd).days)
                if eid in taken or lamt != amt:
                    continue
                if rule == "text" and diff <= window and bt and lt and (bt <= lt or lt <= bt):
                    cands.append((diff, ld, eid))
                if rule == "date" and diff == 0:
                    cands.append((diff, ld, eid))
            if cands:
                _, ld, eid = min(cands)
                taken.add(eid)
                pairs[n] = (eid, ld, rule)
    matches = [[str(n), str(pairs[n][0]), bd.isoformat(), pairs[n][1].isoformat(), _money(amt), pairs[n][2]]
               for n, bd, _d, amt, _t in bank if n in pairs]
    ub = [b for b in bank if b[0] not in pairs]
    ul = sorted((l for l in ledger if l[0] not in taken), key=lambda l: (l[1], l[0]))
    bt, lt = sum(b[3] for b in bank), sum(l[3] for l in ledger)
    summary = {
        "bank_rows": len(bank), "ledger_entries": len(ledger), "void_entries": voids,
        "matched": len(pairs), "matched_by_text": sum(1 for p in pairs.values() if p[2] == "text"),
        "matched_by_date": sum(1 for p in pairs.values() if p[2] == "date"),
        "unmatched_bank": len(ub), "unmatched_ledger": len(ul),
        "bank_total": _money(bt), "ledger_total": _money(lt), "difference": _money(bt - lt),
        "unmatched_bank_total": _money(sum(b[3] for b in ub)),
        "unmatched_ledger_total": _money(sum(l[3] for l in ul)),
    }
    return {
        "matches.csv": matches,
        "unmatched_bank.csv": [[str(b[0]), b[1].isoformat(), b[2], _money(b[3])] for b in ub],
        "unmatched_ledger.csv": [[str(l[0]), l[1].isoformat(), l[2], _money(l[3])] for l in ul],
        "summary.json": summary,
    }


# ---------------------------------------------------------------------------
# Helpers.
# ---------------------------------------------------------------------------

def read_csv(path):
    assert os.path.isfile(path), f"{path} is missing"
    with open(path, "rb") as fh:
        raw = fh.read()
    assert b"\r" not in raw, f"{os.path.basename(path)} must use \\n line endings"
    text = raw.decode("utf-8")
    first = text.split("\n", 1)[0]
    assert first == HEADERS[os.path.basename(path)], f"bad header {first!r}"
    rows = list(csv.reader(io.StringIO(text)))
    return [r for r in rows[1:] if r]


def read_summary(path):
    assert os.path.isfile(path), f"{path} is missing"
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    assert isinstance(data, dict) and set(data) == SUMMARY_KEYS, f"summary keys: {sorted(data)}"
    return data


def run(bank_text, ledger_text, *extra):
    assert os.path.isfile(PROGRAM), f"{PROGRAM} is missing"
    d = tempfile.mkdtemp(prefix="recon-")
    bank, ledger, out = os.path.join(d, "bank.csv"), os.path.join(d, "ledger.csv"), os.path.join(d, "result")
    with open(bank, "w", encoding="utf-8") as fh:
        fh.write(bank_text)
    with open(ledger, "w", encoding="utf-8") as fh:
        fh.write(ledger_text)
    res = agent_run.run([sys.executable, PROGRAM, "--bank", bank, "--ledger", ledger, "--out", out, *extra],
                         capture_output=True, text=True, timeout=TIMEOUT, cwd=d)
    assert res.returncode == 0, f"reconcile.py failed: {res.stderr[-2000:]}"
    return {name: read_csv(os.path.join(out, name)) for name in HEADERS} | {
        "summary.json": read_summary(os.path.join(out, "summary.json"))}


def rows_of(text):
    return [line.split(",") for line in text.strip("\n").splitlines()]


@pytest.fixture(scope="module")
def shipped_expected():
    return model(BANK, LEDGER)


# ---------------------------------------------------------------------------
# Hidden exports (expected results worked out by hand).
# ---------------------------------------------------------------------------

CASE_A_BANK = """Date,Description,Money Out,Money In,Balance
01/03/2024,CARD PAYMENT TO TESCO STORES 3342,23.10,,1000.00
02/03/2024,DD BRITISH GAS,85.00,,915.00
05/03/2024,SALARY ACME LTD,,"2,500.00",3415.00
28/02/2024,POS COFFEE HUT,3.20,,3411.80
31/12/2023,FPO J SMITH RENT,950.00,,2461.80
10/03/2024,AMZN MKTP UK*2K4L,15.99,,2445.81
10/03/2024,AMZN MKTP UK*9ZZ1,15.99,,2429.82
"""
CASE_A_LEDGER = """entry_id,date,payee,memo,amount,status
108,2024-03-09,Amazon Marketplace,,-15.99,posted
101,2024-03-04,Tesco,groceries,-23.10,posted
102,2024-03-06,British Gas,energy,(85.00),posted
103,2024-03-05,Acme Ltd,salary,"2,500.00",posted
104,2024-03-02,Coffee Hut,,-3.20,posted
105,2024-01-02,J Smith,rent,-950.00,posted
106,2024-03-10,Amazon,books,-15.99,posted
107,2024-03-10,Amazon,cable,-15.99,VOID
"""

CASE_B_BANK = """Date,Description,Money Out,Money In,Balance
10/04/2024,NETFLIX.COM,10.99,,
12/04/2024,NETFLIX.COM,10.99,,
15/04/2024,TFR TO SAVINGS REF 0091,200.00,,
15/04/2024,TFR TO SAVINGS REF 0092,200.00,,
20/04/2024,THE COFFEE HUT LTD,4.50,,
22/04/2024,AMZN MKTP UK*AAAA,9.99,,
23/04/2024,AMAZON PRIME,9.99,,
"""
CASE_B_LEDGER = """entry_id,date,payee,memo,amount,status
207,2024-04-20,coffee-hut,,-4.50,posted
206,2024-04-20,Coffee Hut,,-4.50,posted
205,2024-04-16,Savings,,-200.00,posted
204,2024-04-14,Savings,,-200.00,posted
203,2024-04-15,Savings,,-200.00,posted
202,2024-04-12,Netflix,,-10.99,posted
201,2024-04-11,Netflix,,-10.99,posted
208,2024-04-22,Amazon,,-9.99,posted
"""

CASE_C_BANK = """Date,Description,Money Out,Money In,Balance
01/05/2024,"RENT PAYMENT TO LANDLORD, CO","1,200.00",,
03/05/2024,REFUND AMAZON,,75.50 ,
31/05/2024,INTEREST,,0.42,
02/05/2024,"  PARKING, CITY CENTRE ",6.00,,
"""
CASE_C_LEDGER = """entry_id,date,payee,memo,amount,status
301,2024-05-01,Landlord,,"(1,200.00)",posted
302,2024-05-02,Amazon,refund,+75.5,Posted
303,2024-05-30,Interest,,0.42, void
304,2024-06-01,Bank interest,,0.42,posted
305,2024-05-15, Gym ,, -30.00 ,posted
"""


# ---------------------------------------------------------------------------
# Tests on /app/out (the shipped data).
# ---------------------------------------------------------------------------

def test_shipped_outputs_exist_with_exact_headers():
    for name in HEADERS:
        read_csv(os.path.join(OUT, name))
    read_summary(os.path.join(OUT, "summary.json"))


def test_shipped_matches(shipped_expected):
    got = read_csv(os.path.join(OUT, "matches.csv"))
    exp = shipped_expected["matches.csv"]
    diff = [(g, e) for g, e in zip(got, exp) if g != e][:3]
    assert got == exp, f"{len(got)} matches, expected {len(exp)}; first differences {diff}"


def test_shipped_unmatched_rows_on_both_sides(shipped_expected):
    assert read_csv(os.path.join(OUT, "unmatched_bank.csv")) == shipped_expected["unmatched_bank.csv"]
    assert read_csv(os.path.join(OUT, "unmatched_ledger.csv")) == shipped_expected["unmatched_ledger.csv"]


def test_shipped_summary_counts_and_totals(shipped_expected):
    assert read_summary(os.path.join(OUT, "summary.json")) == shipped_expected["summary.json"]


# ---------------------------------------------------------------------------
# Tests running the program.
# ---------------------------------------------------------------------------

def test_program_reproduces_shipped_result(shipped_expected):
    with open(BANK, encoding="utf-8") as b, open(LEDGER, encoding="utf-8") as l:
        got = run(b.read(), l.read())
    assert got == shipped_expected


def test_date_window_leap_day_year_end_and_same_day_pass():
    got = run(CASE_A_BANK, CASE_A_LEDGER)
    assert got["matches.csv"] == rows_of("""
1,101,2024-03-01,2024-03-04,-23.10,text
3,103,2024-03-05,2024-03-05,2500.00,text
4,104,2024-02-28,2024-03-02,-3.20,text
5,105,2023-12-31,2024-01-02,-950.00,text
6,106,2024-03-10,2024-03-10,-15.99,date
""")
    assert got["unmatched_bank.csv"] == rows_of("""
2,2024-03-02,DD BRITISH GAS,-85.00
7,2024-03-10,AMZN MKTP UK*9ZZ1,-15.99
""")
    assert got["unmatched_ledger.csv"] == rows_of("""
102,2024-03-06,British Gas,-85.00
108,2024-03-09,Amazon Marketplace,-15.99
""")


def test_window_option_changes_the_tolerance():
    wide = run(CASE_A_BANK, CASE_A_LEDGER, "--window", "4")
    assert ["2", "102", "2024-03-02", "2024-03-06", "-85.00", "text"] in wide["matches.csv"]
    assert wide["summary.json"]["matched"] == 6 and wide["summary.json"]["unmatched_ledger"] == 1
    exact = run(CASE_A_BANK, CASE_A_LEDGER, "--window", "0")
    assert exact["matches.csv"] == rows_of("""
3,103,2024-03-05,2024-03-05,2500.00,text
6,106,2024-03-10,2024-03-10,-15.99,date
""")
    assert [r[0] for r in exact["unmatched_ledger.csv"]] == ["105", "104", "101", "102", "108"]


def test_tie_breaking_duplicates_and_text_pass_before_date_pass():
    got = run(CASE_B_BANK, CASE_B_LEDGER)
    assert got["matches.csv"] == rows_of("""
1,201,2024-04-10,2024-04-11,-10.99,text
2,202,2024-04-12,2024-04-12,-10.99,text
3,203,2024-04-15,2024-04-15,-200.00,text
4,204,2024-04-15,2024-04-14,-200.00,text
5,206,2024-04-20,2024-04-20,-4.50,text
7,208,2024-04-23,2024-04-22,-9.99,text
""")
    assert got["unmatched_bank.csv"] == rows_of("6,2024-04-22,AMZN MKTP UK*AAAA,-9.99")
    assert got["unmatched_ledger.csv"] == rows_of("""
205,2024-04-16,Savings,-200.00
207,2024-04-20,coffee-hut,-4.50
""")


def test_amount_formats_void_entries_quoting_and_summary():
    got = run(CASE_C_BANK, CASE_C_LEDGER)
    assert got["matches.csv"] == rows_of("""
1,301,2024-05-01,2024-05-01,-1200.00,text
2,302,2024-05-03,2024-05-02,75.50,text
3,304,2024-05-31,2024-06-01,0.42,text
""")
    assert got["unmatched_bank.csv"] == [["4", "2024-05-02", "PARKING, CITY CENTRE", "-6.00"]]
    assert got["unmatched_ledger.csv"] == [["305", "2024-05-15", "Gym", "-30.00"]]
    assert got["summary.json"] == {
        "bank_rows": 4, "ledger_entries": 4, "void_entries": 1, "matched": 3, "matched_by_text": 3,
        "matched_by_date": 0, "unmatched_bank": 1, "unmatched_ledger": 1, "bank_total": "-1130.08",
        "ledger_total": "-1154.08", "difference": "24.00", "unmatched_bank_total": "-6.00",
        "unmatched_ledger_total": "-30.00",
    }
    b = run(CASE_B_BANK, CASE_B_LEDGER)["summary.json"]
    assert b == {
        "bank_rows": 7, "ledger_entries": 8, "void_entries": 0, "matched": 6, "matched_by_text": 6,
        "matched_by_date": 0, "unmatched_bank": 1, "unmatched_ledger": 2, "bank_total": "-446.46",
        "ledger_total": "-640.97", "difference": "194.51", "unmatched_bank_total": "-9.99",
        "unmatched_ledger_total": "-204.50",
    }
