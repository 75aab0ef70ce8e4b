#!/bin/bash
# Reference fix for the three bugs in /app/inventory.
set -euo pipefail
python3 - <<'PY'
import pathlib

PKG = pathlib.Path("/app/inventory")


def patch(name, old, new):
    path = PKG / name
    text = path.read_text()
    assert text.count(old) == 1, f"{name}: pattern not found exactly once: {old!r}"
    path.write_text(text.replace(old, new))


# 1. Pagination: a final page with a single item was dropped (remainder > 1).
patch(
    "report.py",
    "total_pages = max(1, count // per_page + (1 if count % per_page > 1 else 0))",
    "total_pages = max(1, -(-count // per_page))",
)

# 2. Money: int() truncated values such as 15 * 0.29 = 4.3499999... to 434 cents.
#    Do the arithmetic in Decimal on the price's two-decimal representation.
patch(
    "report.py",
    '''def to_cents(amount: float) -> int:
    """Convert a dollar amount to whole cents."""
    return int(amount * 100)''',
    '''def to_cents(amount: float) -> int:
    """Convert a dollar amount to whole cents (rounded half up)."""
    return int(Decimal(repr(amount)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) * 100)


def _item_cents(item: StockItem) -> int:
    price = Decimal(repr(item.unit_price)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return int(price * 100) * item.quantity''',
)
patch(
    "report.py",
    "return format_cents(to_cents(item.quantity * item.unit_price))",
    "return format_cents(_item_cents(item))",
)
patch(
    "report.py",
    "return format_cents(sum(to_cents(i.quantity * i.unit_price) for i in items))",
    "return format_cents(sum(_item_cents(i) for i in items))",
)
patch(
    "report.py",
    "from dataclasses import dataclass\n",
    "from dataclasses import dataclass\nfrom decimal import ROUND_HALF_UP, Decimal\n",
)

# 3. Merge: a SKU seen again replaced the quantity instead of adding to it.
patch(
    "loader.py",
    "            quantity=rec.quantity,\n            unit_price=current.unit_price,",
    "            quantity=current.quantity + rec.quantity,\n            unit_price=current.unit_price,",
)
PY
