#!/bin/bash
# Plausible partial attempt: parses dates and amounts correctly but forgets to
# de-duplicate orders and only trims region names (no case normalisation).
set -euo pipefail
python3 - <<'PY'
import csv
import json
from datetime import datetime

FORMATS = ["%Y-%m-%d", "%m/%d/%Y", "%d.%m.%Y", "%b %d, %Y"]


def parse_date(text):
    for fmt in FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            pass
    raise ValueError(text)


def parse_amount(text):
    cleaned = text.replace("$", "").replace(",", "").strip()
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return value if value > 0 else None


invalid = 0
orders = 0
total = 0.0
regions, months, products = {}, {}, {}
with open("/app/data/sales.csv", newline="") as fh:
    for row in csv.DictReader(fh):
        amount = parse_amount(row["amount"])
        if amount is None:
            invalid += 1
            continue
        orders += 1
        total += amount
        region = row["region"].strip()
        month = parse_date(row["order_date"]).strftime("%Y-%m")
        product = row["product"].strip()
        regions[region] = regions.get(region, 0.0) + amount
        months[month] = months.get(month, 0.0) + amount
        products[product] = products.get(product, 0.0) + amount

report = {
    "valid_orders": orders,
    "invalid_rows": invalid,
    "duplicate_rows": 0,
    "total_revenue": round(total, 2),
    "revenue_by_region": {k: round(v, 2) for k, v in regions.items()},
    "monthly_revenue": {k: round(v, 2) for k, v in months.items()},
    "top_product": max(products, key=products.get),
}
json.dump(report, open("/app/report.json", "w"), indent=2)
PY
