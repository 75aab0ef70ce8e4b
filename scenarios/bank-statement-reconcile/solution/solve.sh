#!/bin/bash
# Reference reconciliation.
set -euo pipefail
cat > /app/reconcile.py <<'PYEOF'
#!/usr/bin/env python3
"""Reconcile a bank statement export with the accounting ledger."""
import argparse
import csv
import datetime
import json
import os
import re

STOPWORDS = {"CARD", "PAYMENT", "POS", "DD", "SO", "FPI", "FPO", "BGC", "TFR", "REF", "TO", "FROM",
             "LTD", "LIMITED", "PLC", "THE", "UK", "GB", "CO", "INC"}
AMOUNT_RE = re.compile(r"^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")


def cents_of(text):
    text = text.strip()
    neg = False
    if text.startswith("(") and text.endswith(")"):
        neg, text = True, text[1:-1].strip()
    m = AMOUNT_RE.match(text)
    if not m:
        raise ValueError(f"bad amount {text!r}")
    value = int(m.group(2).replace(",", "")) * 100 + int((m.group(3) or "0").ljust(2, "0"))
    if m.group(1) == "-":
        neg = True
    return -value if neg else value


def fmt(cents):
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def tokens(text):
    words = re.sub(r"[^A-Z0-9]", " ", text.upper()).split()
    return frozenset(w for w in words if w not in STOPWORDS and not any(c.isdigit() for c in w))


def text_match(a, b):
    return bool(a) and bool(b) and (a <= b or b <= a)


def load_bank(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as fh:
        for i, r in enumerate(csv.DictReader(fh), 1):
            out_s, in_s = (r["Money Out"] or "").strip(), (r["Money In"] or "").strip()
            amount = (cents_of(in_s) if in_s else 0) - (cents_of(out_s) if out_s else 0)
            rows.append({"row": i, "date": datetime.datetime.strptime(r["Date"].strip(), "%d/%m/%Y").date(),
                         "desc": r["Description"].strip(), "amount": amount,
                         "tokens": tokens(r["Description"])})
    return rows


def load_ledger(path):
    entries, voids = [], 0
    with open(path, newline="", encoding="utf-8") as fh:
        for r in csv.DictReader(fh):
            if (r["status"] or "").strip().lower() == "void":
                voids += 1
                continue
            entries.append({"id": int(r["entry_id"]), "date": datetime.date.fromisoformat(r["date"].strip()),
                            "payee": r["payee"].strip(), "amount": cents_of(r["amount"]),
                            "tokens": tokens(r["payee"])})
    return entries, voids


def reconcile(bank, ledger, window):
    used = set()
    matches = {}
    for rule in ("text", "date"):
        for b in bank:
            if b["row"] in matches:
                continue
            best = None
            for l in ledger:
                if l["id"] in used or l["amount"] != b["amount"]:
                    continue
                diff = abs((l["date"] - b["date"]).days)
                if rule == "text" and (diff > window or not text_match(b["tokens"], l["tokens"])):
                    continue
                if rule == "date" and diff != 0:
                    continue
                key = (diff, l["date"], l["id"])
                if best is None or key < best[0]:
                    best = (key, l)
            if best:
                used.add(best[1]["id"])
                matches[b["row"]] = (best[1], rule)
    return matches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bank", default="/app/data/bank.csv")
    ap.add_argument("--ledger", default="/app/data/ledger.csv")
    ap.add_argument("--out", default="/app/out")
    ap.add_argument("--window", type=int, default=3)
    args = ap.parse_args()

    bank = load_bank(args.bank)
    ledger, voids = load_ledger(args.ledger)
    matches = reconcile(bank, ledger, args.window)
    used = {l["id"] for l, _ in matches.values()}
    os.makedirs(args.out, exist_ok=True)

    def writer(name, header):
        fh = open(os.path.join(args.out, name), "w", newline="", encoding="utf-8")
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(header)
        return fh, w

    fh, w = writer("matches.csv", ["bank_row", "entry_id", "bank_date", "ledger_date", "amount", "rule"])
    for b in bank:
        if b["row"] in matches:
            l, rule = matches[b["row"]]
            w.writerow([b["row"], l["id"], b["date"].isoformat(), l["date"].isoformat(), fmt(b["amount"]), rule])
    fh.close()
    fh, w = writer("unmatched_bank.csv", ["bank_row", "date", "description", "amount"])
    ub = [b for b in bank if b["row"] not in matches]
    for b in ub:
        w.writerow([b["row"], b["date"].isoformat(), b["desc"], fmt(b["amount"])])
    fh.close()
    fh, w = writer("unmatched_ledger.csv", ["entry_id", "date", "payee", "amount"])
    ul = sorted((l for l in ledger if l["id"] not in used), key=lambda l: (l["date"], l["id"]))
    for l in ul:
        w.writerow([l["id"], l["date"].isoformat(), l["payee"], fmt(l["amount"])])
    fh.close()

    bank_total = sum(b["amount"] for b in bank)
    ledger_total = sum(l["amount"] for l in ledger)
    summary = {
        "bank_rows": len(bank),
        "ledger_entries": len(ledger),
        "void_entries": voids,
        "matched": len(matches),
        "matched_by_text": sum(1 for _, r in matches.values() if r == "text"),
        "matched_by_date": sum(1 for _, r in matches.values() if r == "date"),
        "unmatched_bank": len(ub),
        "unmatched_ledger": len(ul),
        "bank_total": fmt(bank_total),
        "ledger_total": fmt(ledger_total),
        "difference": fmt(bank_total - ledger_total),
        "unmatched_bank_total": fmt(sum(b["amount"] for b in ub)),
        "unmatched_ledger_total": fmt(sum(l["amount"] for l in ul)),
    }
    with open(os.path.join(args.out, "summary.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, indent=2)
        fh.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
PYEOF
python3 /app/reconcile.py
