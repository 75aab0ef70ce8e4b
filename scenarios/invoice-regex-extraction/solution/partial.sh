#!/bin/bash
# Plausible partial attempt: the labelled-line and amount rules are right, but it
# does not skip e-mail headers (so a header `Date:` or `Invoice No:` line wins)
# and does not accept ordinal day suffixes such as `5th`.
set -euo pipefail
cat > /app/extract_invoices.py <<'PY'
#!/usr/bin/env python3
"""Extract invoice id, dates, currency and total from plain-text invoices into a CSV."""
import csv
import datetime as dt
import os
import re
import sys

MONTHS = {m: i for i, m in enumerate(
    ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], 1)}
MONTH_RE = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
            r"|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
ORD = r""

DATE_PATTERNS = [
    (re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)"), lambda m: (m[1], m[2], m[3])),
    (re.compile(r"(?<![\d./])(\d{1,2})[./](\d{1,2})[./](\d{4})(?!\d)"), lambda m: (m[3], m[2], m[1])),
    (re.compile(rf"(?<![\w])(\d{{1,2}}){ORD}[ -]({MONTH_RE})[ -](\d{{4}})(?!\d)", re.I),
     lambda m: (m[3], m[2], m[1])),
    (re.compile(rf"(?<![\w])({MONTH_RE})\.? (\d{{1,2}}){ORD},? (\d{{4}})(?!\d)", re.I),
     lambda m: (m[3], m[1], m[2])),
]

ID_RE = re.compile(r"(?<![A-Za-z])INV[-_/. ]?(\d{4})[-_/. ](\d{1,5})(?!\d)", re.I)
CUR = r"(?:[$€£]|USD|EUR|GBP|CHF)"
SP = "[ \u00a0]?"
NUMBER = r"\d{1,3}(?:[,.' \u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?(?!\d)|\d+(?:[.,]\d{1,2})?(?!\d)"
AMOUNT_RE = re.compile(rf"(?:(?P<pre>{CUR}){SP})?(?P<num>{NUMBER})(?:{SP}(?P<post>{CUR})(?![A-Za-z]))?", re.I)
SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
SEP = r"(?:[ \t]*[:.#]+[ \t]*|[ \t]{2,})"

LABELS = {
    "id": ["Invoice No", "Invoice Number", "Invoice ID", "Invoice", "Inv. No", "Inv No"],
    "issue": ["Invoice Date", "Date of Issue", "Issue Date", "Issued", "Date"],
    "due": ["Due Date", "Payment Due", "Due", "Pay By"],
    "terms": ["Payment Terms", "Terms"],
    "total1": ["Amount Due", "Balance Due", "Total Due"],
    "total2": ["Grand Total", "Invoice Total", "Total Amount", "Total"],
    "currency": ["Currency"],
}
LABEL_RES = {
    field: [re.compile(re.escape(label) + SEP, re.I) for label in labels] for field, labels in LABELS.items()
}


def body_lines(text):
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    out = []
    for line in lines:
        line = line.lstrip()
        line = re.sub(r"^(?:>[ \t]*)+", "", line)
        out.append(line)
    return out


def values_for(lines, field):
    """Value texts of the lines labelled for `field`, in file order."""
    for line in lines:
        for rx in LABEL_RES[field]:
            m = rx.match(line)
            if m:
                yield line[m.end():]
                break


def parse_date(text):
    best = None
    for rx, parts in DATE_PATTERNS:
        m = rx.search(text)
        if not m:
            continue
        y, mo, d = parts(m)
        mo = int(mo) if mo.isdigit() else MONTHS[mo[:3].lower()]
        try:
            value = dt.date(int(y), mo, int(d))
        except ValueError:
            continue
        if best is None or m.start() < best[0]:
            best = (m.start(), value)
    return best[1] if best else None


def parse_amount(text):
    for m in AMOUNT_RE.finditer(text):
        num = m["num"]
        dec = re.search(r"[.,](\d{1,2})$", num)
        if dec:
            whole, frac = num[: dec.start()], dec.group(1).ljust(2, "0")
        else:
            whole, frac = num, "00"
        whole = re.sub(r"[^\d]", "", whole)
        cur = m["pre"] or m["post"]
        cur = SYMBOLS.get(cur, cur.upper()) if cur else ""
        return f"{int(whole)}.{frac}", cur
    return None


def first(lines, field, parse):
    for value in values_for(lines, field):
        result = parse(value)
        if result is not None:
            return result
    return None


def extract(text):
    lines = body_lines(text)
    inv = first(lines, "id", lambda v: ID_RE.search(v))
    if inv is None:
        return None
    invoice_id = f"INV-{inv.group(1)}-{int(inv.group(2)):05d}"
    issue = first(lines, "issue", parse_date)
    due = first(lines, "due", parse_date)
    if due is None and issue is not None:
        net = first(lines, "terms", lambda v: re.search(r"\bnet\s*(\d+)\b", v, re.I))
        if net:
            due = issue + dt.timedelta(days=int(net.group(1)))
    total = first(lines, "total1", parse_amount) or first(lines, "total2", parse_amount)
    amount, currency = total if total else ("", "")
    if total and not currency:
        code = first(lines, "currency", lambda v: re.search(r"\b([A-Za-z]{3})\b", v))
        currency = code.group(1).upper() if code else ""
    return [invoice_id, issue.isoformat() if issue else "", due.isoformat() if due else "", currency, amount]


def main(argv):
    if len(argv) != 3:
        print("usage: extract_invoices.py IN_DIR OUT_CSV", file=sys.stderr)
        return 2
    in_dir, out_csv = argv[1], argv[2]
    rows = []
    for name in sorted(os.listdir(in_dir)):
        path = os.path.join(in_dir, name)
        if not name.endswith(".txt") or not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace", newline="") as fh:
            row = extract(fh.read())
        if row is not None:
            rows.append([name] + row)
    with open(out_csv, "w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(["file", "invoice_id", "issue_date", "due_date", "currency", "total"])
        writer.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
PY
python3 /app/extract_invoices.py /app/invoices /app/invoices.csv
