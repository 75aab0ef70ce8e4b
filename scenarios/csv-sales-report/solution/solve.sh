#!/bin/bash
set -euo pipefail
python3 - <<'PY'
import csv
import json
import re
from datetime import datetime
from decimal import Decimal, InvalidOperation, ROUND_HALF_UP

SRC = "/app/data/sales.csv"
OUT = "/app/report.json"
DATE_FORMATS = ["%Y-%m-%d", "%m/%d/%Y", "%d.%m.%Y", "%b %d, %Y"]
AMOUNT_RE = re.compile(r"^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$")


def parse_date(text):
    text = text.strip()
    for fmt in DATE_FORMATS:
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            pass
    raise ValueError(f"unparseable date: {text!r}")


def parse_amount(text):
    text = text.strip()
    m = AMOUNT_RE.match(text)
    if not m:
        return None
    whole = m.group(1).replace(",", "")
    frac = m.group(2) or "0"
    try:
        value = Decimal(f"{whole}.{frac}")
    except InvalidOperation:
        return None
    return value if value > 0 else None


def money(d):
    return float(d.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


seen = set()
invalid = duplicates = 0
total = Decimal(0)
by_region, by_month, by_product = {}, {}, {}
with open(SRC, newline="", encoding="utf-8") as fh:
    reader = csv.DictReader(fh)
    reader.fieldnames = [f.strip() for f in reader.fieldnames]
    for row in reader:
        amount = parse_amount(row["amount"] or "")
        if amount is None:
            invalid += 1
            continue
        oid = row["order_id"].strip()
        if oid in seen:
            duplicates += 1
            continue
        seen.add(oid)
        region = row["region"].strip().title()
        product = row["product"].strip()
        month = parse_date(row["order_date"]).strftime("%Y-%m")
        total += amount
        by_region[region] = by_region.get(region, Decimal(0)) + amount
        by_month[month] = by_month.get(month, Decimal(0)) + amount
        by_product[product] = by_product.get(product, Decimal(0)) + amount

top = sorted(by_product.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
report = {
    "valid_orders": len(seen),
    "invalid_rows": invalid,
    "duplicate_rows": duplicates,
    "total_revenue": money(total),
    "revenue_by_region": {k: money(v) for k, v in sorted(by_region.items())},
    "monthly_revenue": {k: money(v) for k, v in sorted(by_month.items())},
    "top_product": top,
}
with open(OUT, "w", encoding="utf-8") as fh:
    json.dump(report, fh, indent=2)
    fh.write("\n")
PY
