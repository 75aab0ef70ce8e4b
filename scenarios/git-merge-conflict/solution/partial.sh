#!/bin/bash
# Plausible partial merge: resolves the code, test and settings conflicts, but
# resolves CHANGELOG.md by just dropping the conflict markers (both chunks kept one
# after the other, so "### Added" appears twice) and misses the semantic conflict:
# main's new shop/report.py still calls calc_total, which the merge removed.
set -euo pipefail
cd /app/repo
git checkout -q main
git merge feature >/dev/null 2>&1 || true

cat > shop/pricing.py <<'PY'
"""Price calculation for carts.

A cart is a list of lines, each a dict with "sku", "price" (the unit price, a
number or a decimal string such as "19.99") and "qty".

All money is handled in integer cents. Every percentage amount (discount, tax)
is computed on an amount in cents and rounded half up to a whole cent.
"""
from decimal import ROUND_HALF_UP, Decimal

from shop.settings import load_settings


class CartError(ValueError):
    """The cart cannot be priced."""


def to_cents(amount):
    """A unit price (number or decimal string) in integer cents, rounded half up."""
    return int((Decimal(str(amount)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def percent_of(cents, percent):
    """percent % of an amount in cents, rounded half up to a whole cent."""
    return int((Decimal(cents) * Decimal(str(percent)) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def format_cents(cents):
    """12345 -> '123.45'"""
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def line_total(line, settings):
    """Price of one cart line in cents: unit price times quantity.

    Bulk discount: when the quantity is at least settings["bulk_min_qty"], the
    line gets settings["bulk_discount_percent"] % off (rounded half up to a cent).
    """
    if line["qty"] < 1:
        raise CartError(f"quantity of {line['sku']} must be at least 1")
    total = to_cents(line["price"]) * line["qty"]
    bulk_min = settings.get("bulk_min_qty")
    if bulk_min and line["qty"] >= bulk_min:
        total -= percent_of(total, settings["bulk_discount_percent"])
    return total


def compute_total(lines, code=None, settings=None):
    """Total of a cart, in cents.

    The lines are added up, the discount code (a percentage) is taken off the
    subtotal, and tax is added on the discounted amount.
    """
    settings = settings or load_settings()
    if len(lines) > settings["max_items"]:
        raise CartError(f"a cart holds at most {settings['max_items']} lines")
    subtotal = sum(line_total(line, settings) for line in lines)
    percent = 0
    if code:
        if code not in settings["discount_codes"]:
            raise CartError(f"unknown discount code {code!r}")
        percent = settings["discount_codes"][code]
    discounted = subtotal - percent_of(subtotal, percent)
    return discounted + percent_of(discounted, settings["tax_rate_percent"])
PY

python3 - <<'PY'
import re
path = "shop/cli.py"
text = open(path).read()
text = text.replace('''<<<<<<< HEAD
from shop.pricing import CartError, calc_total, format_cents
from shop.report import build_report
=======
from shop.pricing import CartError, compute_total
>>>>>>> feature
''', '''from shop.pricing import CartError, compute_total, format_cents
from shop.report import build_report
''')
text = re.sub(r"<<<<<<< HEAD\n(.*?)=======\n.*?>>>>>>> feature\n", lambda m: m.group(1), text, flags=re.S)
text = text.replace("calc_total(", "compute_total(")
open(path, "w").write(text)
PY

cat > tests/test_pricing.py <<'PY'
import unittest

from shop.pricing import CartError, compute_total

SETTINGS = {"currency": "USD", "discount_codes": {"SAVE10": 10}, "max_items": 3, "tax_rate_percent": 20}
BULK = dict(SETTINGS, bulk_min_qty=10, bulk_discount_percent=5)


class TotalTest(unittest.TestCase):
    def test_adds_tax(self):
        lines = [{"sku": "A", "price": 10, "qty": 2}]
        self.assertEqual(compute_total(lines, settings=SETTINGS), 2400)

    def test_discount_code(self):
        lines = [{"sku": "A", "price": 10, "qty": 1}]
        self.assertEqual(compute_total(lines, code="SAVE10", settings=SETTINGS), 1080)

    def test_unknown_code(self):
        with self.assertRaises(CartError):
            compute_total([], code="NOPE", settings=SETTINGS)

    def test_too_many_lines(self):
        lines = [{"sku": str(i), "price": 1, "qty": 1} for i in range(4)]
        with self.assertRaises(CartError):
            compute_total(lines, settings=SETTINGS)

    def test_rounds_half_up_in_cents(self):
        # 3 x 0.35 = 1.05; 10% off is 0.105 -> 0.11, leaving 0.94; tax 0.188 -> 0.19
        lines = [{"sku": "B", "price": "0.35", "qty": 3}]
        self.assertEqual(compute_total(lines, code="SAVE10", settings=SETTINGS), 113)

    def test_decimal_string_prices(self):
        lines = [{"sku": "C", "price": "19.99", "qty": 1}]
        self.assertEqual(compute_total(lines, settings=SETTINGS), 2399)

    def test_bulk_discount_from_min_qty(self):
        lines = [{"sku": "A", "price": 2, "qty": 10}]
        self.assertEqual(compute_total(lines, settings=BULK), 2280)

    def test_no_bulk_discount_below_min_qty(self):
        lines = [{"sku": "A", "price": 2, "qty": 9}]
        self.assertEqual(compute_total(lines, settings=BULK), 2160)

    def test_rejects_zero_quantity(self):
        with self.assertRaises(CartError):
            compute_total([{"sku": "A", "price": 1, "qty": 0}], settings=SETTINGS)
PY

cat > config/settings.json <<'JSON'
{
  "bulk_discount_percent": 5,
  "bulk_min_qty": 10,
  "currency": "EUR",
  "discount_codes": {
    "SAVE10": 10,
    "SPRING15": 15,
    "WELCOME5": 5
  },
  "max_items": 100,
  "tax_rate_percent": 20,
  "version": "1.3.0"
}
JSON

sed -i -e '/^<<<<<<< /d' -e '/^=======$/d' -e '/^>>>>>>> /d' CHANGELOG.md

git add -A
git commit -q --no-edit
git status --porcelain --untracked-files=all
