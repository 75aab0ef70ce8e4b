#!/usr/bin/env python3
"""Builds /app/repo: a small Python project whose `main` and `feature` branches
diverged. Every commit has fixed authors and dates, so the commit ids are the
same on every build."""
import os
import subprocess
import sys

REPO = sys.argv[1] if len(sys.argv) > 1 else "/app/repo"

MARIA = ("Maria Lopez", "maria@tinyshop.example")
KENJI = ("Kenji Ito", "kenji@tinyshop.example")


def git(*args, env=None):
    subprocess.run(["git", *args], cwd=REPO, check=True, env=env, stdout=subprocess.DEVNULL)


def write(files):
    for path, text in files.items():
        full = os.path.join(REPO, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as fh:
            fh.write(text)


def commit(files, message, who, date):
    write(files)
    git("add", "-A")
    env = dict(os.environ)
    env.update({
        "GIT_AUTHOR_NAME": who[0], "GIT_AUTHOR_EMAIL": who[1], "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_NAME": who[0], "GIT_COMMITTER_EMAIL": who[1], "GIT_COMMITTER_DATE": date,
    })
    git("commit", "-q", "-m", message, env=env)


# ---------------------------------------------------------------------------
# Common ancestor
# ---------------------------------------------------------------------------

GITIGNORE = "__pycache__/\n*.pyc\n"

README = """# tinyshop

Price quotes for the carts of a small web shop.

    python3 -m shop quote CART.json [--code CODE]

A cart file is a JSON object `{"lines": [{"sku": "A-1", "price": "12.50", "qty": 2}, ...]}`.
Settings (currency, tax rate, discount codes, limits) live in `config/settings.json`.

Run the tests with

    python3 -m unittest discover -s tests
"""

CHANGELOG_RELEASED = """## [1.2.0] - 2024-02-10
### Added
- `quote` command prints the total of a cart file.

### Fixed
- Tax is applied after the discount, not before.

## [1.1.0] - 2024-01-15
### Added
- Discount codes.
"""

CHANGELOG_HEAD = """# Changelog

All notable changes to this project are documented here.
The format follows Keep a Changelog; new entries go under Unreleased.

"""


def changelog(unreleased):
    body = "## [Unreleased]\n" + unreleased + "\n"
    return CHANGELOG_HEAD + body + CHANGELOG_RELEASED


SETTINGS_BASE = """{
  "currency": "USD",
  "discount_codes": {
    "SAVE10": 10
  },
  "max_items": 50,
  "tax_rate_percent": 20,
  "version": "1.2.0"
}
"""

INIT = '"""tinyshop: price quotes for small web-shop carts."""\n'

MAIN_PY = """import sys

from shop.cli import main

sys.exit(main())
"""

SETTINGS_PY = '''"""Loads config/settings.json from the repository root."""
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SETTINGS_PATH = os.path.join(ROOT, "config", "settings.json")


def load_settings(path=SETTINGS_PATH):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
'''

PRICING_BASE = '''"""Price calculation for carts.

A cart is a list of lines, each a dict with "sku", "price" (the unit price) and "qty".
"""
from shop.settings import load_settings


class CartError(ValueError):
    """The cart cannot be priced."""


def line_total(line):
    """Price of one cart line: unit price times quantity."""
    return line["price"] * line["qty"]


def calc_total(lines, code=None, settings=None):
    """Total of a cart.

    The lines are added up, the discount code (a percentage) is taken off the
    subtotal, and tax is added on the discounted amount.
    """
    settings = settings or load_settings()
    if len(lines) > settings["max_items"]:
        raise CartError(f"a cart holds at most {settings['max_items']} lines")
    subtotal = sum(line_total(line) for line in lines)
    percent = 0
    if code:
        if code not in settings["discount_codes"]:
            raise CartError(f"unknown discount code {code!r}")
        percent = settings["discount_codes"][code]
    discounted = subtotal * (100 - percent) / 100
    return round(discounted * (100 + settings["tax_rate_percent"]) / 100, 2)
'''

CLI_BASE = '''"""Command line: python3 -m shop quote CART.json [--code CODE]"""
import argparse
import json
import sys

from shop.pricing import CartError, calc_total
from shop.settings import load_settings


def cmd_quote(args):
    with open(args.cart, encoding="utf-8") as fh:
        lines = json.load(fh)["lines"]
    settings = load_settings()
    total = calc_total(lines, code=args.code, settings=settings)
    print(f"Total: {settings['currency']} {total:.2f}")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="shop")
    sub = parser.add_subparsers(dest="command", required=True)
    quote = sub.add_parser("quote", help="price a cart file")
    quote.add_argument("cart")
    quote.add_argument("--code")
    quote.set_defaults(func=cmd_quote)
    args = parser.parse_args(argv)
    try:
        args.func(args)
    except CartError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0
'''

TESTS_BASE = '''import unittest

from shop.pricing import CartError, calc_total

SETTINGS = {"currency": "USD", "discount_codes": {"SAVE10": 10}, "max_items": 3, "tax_rate_percent": 20}


class TotalTest(unittest.TestCase):
    def test_adds_tax(self):
        lines = [{"sku": "A", "price": 10, "qty": 2}]
        self.assertEqual(calc_total(lines, settings=SETTINGS), 24.0)

    def test_discount_code(self):
        lines = [{"sku": "A", "price": 10, "qty": 1}]
        self.assertEqual(calc_total(lines, code="SAVE10", settings=SETTINGS), 10.8)

    def test_unknown_code(self):
        with self.assertRaises(CartError):
            calc_total([], code="NOPE", settings=SETTINGS)

    def test_too_many_lines(self):
        lines = [{"sku": str(i), "price": 1, "qty": 1} for i in range(4)]
        with self.assertRaises(CartError):
            calc_total(lines, settings=SETTINGS)
'''

# ---------------------------------------------------------------------------
# main branch
# ---------------------------------------------------------------------------

PRICING_MAIN = '''"""Price calculation for carts.

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


def line_total(line):
    """Price of one cart line in cents: unit price times quantity."""
    return to_cents(line["price"]) * line["qty"]


def calc_total(lines, code=None, settings=None):
    """Total of a cart, in cents.

    The lines are added up, the discount code (a percentage) is taken off the
    subtotal, and tax is added on the discounted amount.
    """
    settings = settings or load_settings()
    if len(lines) > settings["max_items"]:
        raise CartError(f"a cart holds at most {settings['max_items']} lines")
    subtotal = sum(line_total(line) for line in lines)
    percent = 0
    if code:
        if code not in settings["discount_codes"]:
            raise CartError(f"unknown discount code {code!r}")
        percent = settings["discount_codes"][code]
    discounted = subtotal - percent_of(subtotal, percent)
    return discounted + percent_of(discounted, settings["tax_rate_percent"])
'''

CLI_MAIN1 = CLI_BASE.replace(
    "from shop.pricing import CartError, calc_total\n",
    "from shop.pricing import CartError, calc_total, format_cents\n",
).replace(
    "    total = calc_total(lines, code=args.code, settings=settings)\n"
    "    print(f\"Total: {settings['currency']} {total:.2f}\")\n",
    "    total = calc_total(lines, code=args.code, settings=settings)\n"
    "    print(f\"Total: {settings['currency']} {format_cents(total)}\")\n",
)

CLI_MAIN2 = CLI_MAIN1.replace(
    '"""Command line: python3 -m shop quote CART.json [--code CODE]"""\n',
    '"""Command line:\n\n    python3 -m shop quote CART.json [--code CODE]\n    python3 -m shop report ORDERS.json\n"""\n',
).replace(
    "from shop.pricing import CartError, calc_total, format_cents\n",
    "from shop.pricing import CartError, calc_total, format_cents\nfrom shop.report import build_report\n",
).replace(
    "\n\ndef main(argv=None):\n",
    '''

def cmd_report(args):
    with open(args.orders, encoding="utf-8") as fh:
        orders = json.load(fh)["orders"]
    for line in build_report(orders, load_settings()):
        print(line)


def main(argv=None):
''',
).replace(
    "    quote.set_defaults(func=cmd_quote)\n",
    "    quote.set_defaults(func=cmd_quote)\n"
    "    report = sub.add_parser(\"report\", help=\"total of every order in an orders file\")\n"
    "    report.add_argument(\"orders\")\n"
    "    report.set_defaults(func=cmd_report)\n",
)

REPORT_PY = '''"""Sales report: the total of every order of an orders file, and the grand total.

An orders file is a JSON object {"orders": [{"id": ..., "lines": [...], "code": ...}, ...]}
("code" is optional).
"""
from shop.pricing import calc_total, format_cents


def build_report(orders, settings):
    """One "<id>\\t<total>" line per order, then "TOTAL\\t<currency> <grand total>"."""
    out = []
    grand = 0
    for order in orders:
        total = calc_total(order["lines"], code=order.get("code"), settings=settings)
        grand += total
        out.append(f"{order['id']}\\t{format_cents(total)}")
    out.append(f"TOTAL\\t{settings['currency']} {format_cents(grand)}")
    return out
'''

TEST_REPORT = '''import unittest

from shop.report import build_report

SETTINGS = {"currency": "USD", "discount_codes": {"SAVE10": 10}, "max_items": 3, "tax_rate_percent": 20}


class ReportTest(unittest.TestCase):
    def test_one_line_per_order_and_grand_total(self):
        orders = [
            {"id": "o-1", "lines": [{"sku": "A", "price": "10.00", "qty": 1}]},
            {"id": "o-2", "lines": [{"sku": "B", "price": "5", "qty": 2}], "code": "SAVE10"},
        ]
        self.assertEqual(build_report(orders, SETTINGS), ["o-1\\t12.00", "o-2\\t10.80", "TOTAL\\tUSD 22.80"])
'''

TESTS_MAIN = TESTS_BASE.replace(
    "self.assertEqual(calc_total(lines, settings=SETTINGS), 24.0)",
    "self.assertEqual(calc_total(lines, settings=SETTINGS), 2400)",
).replace(
    'self.assertEqual(calc_total(lines, code="SAVE10", settings=SETTINGS), 10.8)',
    'self.assertEqual(calc_total(lines, code="SAVE10", settings=SETTINGS), 1080)',
) + '''
    def test_rounds_half_up_in_cents(self):
        # 3 x 0.35 = 1.05; 10% off is 0.105 -> 0.11, leaving 0.94; tax 0.188 -> 0.19
        lines = [{"sku": "B", "price": "0.35", "qty": 3}]
        self.assertEqual(calc_total(lines, code="SAVE10", settings=SETTINGS), 113)

    def test_decimal_string_prices(self):
        lines = [{"sku": "C", "price": "19.99", "qty": 1}]
        self.assertEqual(calc_total(lines, settings=SETTINGS), 2399)
'''

SETTINGS_MAIN = """{
  "currency": "EUR",
  "discount_codes": {
    "SAVE10": 10,
    "SPRING15": 15
  },
  "max_items": 100,
  "tax_rate_percent": 20,
  "version": "1.3.0"
}
"""

UNREL_M1 = """### Changed
- Money is computed in integer cents; discounts and tax are rounded half up to the cent.
"""
UNREL_M2 = """### Added
- `report` command that prints the total of every order in an orders file.

### Changed
- Money is computed in integer cents; discounts and tax are rounded half up to the cent.
"""
UNREL_M3 = """### Added
- `report` command that prints the total of every order in an orders file.

### Changed
- Money is computed in integer cents; discounts and tax are rounded half up to the cent.
- Default currency is EUR; new discount code SPRING15 (15% off).
"""

# ---------------------------------------------------------------------------
# feature branch
# ---------------------------------------------------------------------------

PRICING_F1 = PRICING_BASE.replace("def calc_total(", "def compute_total(")
CLI_F1 = CLI_BASE.replace("calc_total", "compute_total")
TESTS_F1 = TESTS_BASE.replace("calc_total", "compute_total")

PRICING_F2 = PRICING_F1.replace(
    '''def line_total(line):
    """Price of one cart line: unit price times quantity."""
    return line["price"] * line["qty"]
''',
    '''def line_total(line, settings):
    """Price of one cart line: unit price times quantity.

    Bulk discount: when the quantity is at least settings["bulk_min_qty"], the
    line gets settings["bulk_discount_percent"] % off.
    """
    total = line["price"] * line["qty"]
    bulk_min = settings.get("bulk_min_qty")
    if bulk_min and line["qty"] >= bulk_min:
        total = total * (100 - settings["bulk_discount_percent"]) / 100
    return total
''',
).replace(
    "    subtotal = sum(line_total(line) for line in lines)\n",
    "    subtotal = sum(line_total(line, settings) for line in lines)\n",
)

PRICING_F4 = PRICING_F2.replace(
    '''    total = line["price"] * line["qty"]
    bulk_min''',
    '''    if line["qty"] < 1:
        raise CartError(f"quantity of {line['sku']} must be at least 1")
    total = line["price"] * line["qty"]
    bulk_min''',
)

TESTS_F2 = TESTS_F1.replace(
    '"tax_rate_percent": 20}\n',
    '"tax_rate_percent": 20}\nBULK = dict(SETTINGS, bulk_min_qty=10, bulk_discount_percent=5)\n',
) + '''
    def test_bulk_discount_from_min_qty(self):
        lines = [{"sku": "A", "price": 2, "qty": 10}]
        self.assertAlmostEqual(compute_total(lines, settings=BULK), 22.8)

    def test_no_bulk_discount_below_min_qty(self):
        lines = [{"sku": "A", "price": 2, "qty": 9}]
        self.assertAlmostEqual(compute_total(lines, settings=BULK), 21.6)
'''

TESTS_F4 = TESTS_F2 + '''
    def test_rejects_zero_quantity(self):
        with self.assertRaises(CartError):
            compute_total([{"sku": "A", "price": 1, "qty": 0}], settings=SETTINGS)
'''

SETTINGS_F2 = """{
  "bulk_discount_percent": 5,
  "bulk_min_qty": 10,
  "currency": "USD",
  "discount_codes": {
    "SAVE10": 10
  },
  "max_items": 50,
  "tax_rate_percent": 20,
  "version": "1.2.0"
}
"""

SETTINGS_F3 = """{
  "bulk_discount_percent": 5,
  "bulk_min_qty": 10,
  "currency": "USD",
  "discount_codes": {
    "SAVE10": 10,
    "WELCOME5": 5
  },
  "max_items": 75,
  "tax_rate_percent": 20,
  "version": "1.2.0"
}
"""

UNREL_F2 = """### Added
- Bulk discount: 5% off a line of 10 or more units.
"""
UNREL_F3 = """### Added
- Bulk discount: 5% off a line of 10 or more units.
- Discount code WELCOME5 (5% off).
"""
UNREL_F4 = """### Added
- Bulk discount: 5% off a line of 10 or more units.
- Discount code WELCOME5 (5% off).

### Fixed
- Cart lines with a quantity below 1 are rejected.
"""


def main():
    os.makedirs(REPO, exist_ok=True)
    git("init", "-q", "-b", "main")
    git("config", "user.name", "Shop Developer")
    git("config", "user.email", "dev@tinyshop.example")

    base_files = {
        ".gitignore": GITIGNORE,
        "README.md": README,
        "CHANGELOG.md": CHANGELOG_HEAD + "## [Unreleased]\n\n" + CHANGELOG_RELEASED,
        "config/settings.json": SETTINGS_BASE,
        "shop/__init__.py": INIT,
        "shop/__main__.py": MAIN_PY,
        "shop/settings.py": SETTINGS_PY,
        "shop/pricing.py": PRICING_BASE,
        "shop/cli.py": CLI_BASE,
        "tests/__init__.py": "",
        "tests/test_pricing.py": TESTS_BASE,
    }
    commit(base_files, "Release 1.2.0", MARIA, "2024-02-10T10:00:00+01:00")

    git("branch", "feature")

    # interleaved work on both branches
    git("checkout", "-q", "main")
    commit({"shop/pricing.py": PRICING_MAIN, "shop/cli.py": CLI_MAIN1, "tests/test_pricing.py": TESTS_MAIN,
            "CHANGELOG.md": changelog(UNREL_M1)},
           "Compute money in integer cents\n\nFloats gave totals one cent off (e.g. 3 x 0.35 with SAVE10).\n"
           "Prices may now be decimal strings; every percentage is rounded half up to a cent.",
           MARIA, "2024-03-04T09:12:00+01:00")
    git("checkout", "-q", "feature")
    commit({"shop/pricing.py": PRICING_F1, "shop/cli.py": CLI_F1, "tests/test_pricing.py": TESTS_F1},
           "Rename calc_total to compute_total", KENJI, "2024-03-05T11:40:00+09:00")
    git("checkout", "-q", "main")
    commit({"shop/report.py": REPORT_PY, "shop/cli.py": CLI_MAIN2, "tests/test_report.py": TEST_REPORT,
            "CHANGELOG.md": changelog(UNREL_M2)},
           "Add report command", MARIA, "2024-03-06T15:03:00+01:00")
    git("checkout", "-q", "feature")
    commit({"shop/pricing.py": PRICING_F2, "tests/test_pricing.py": TESTS_F2, "config/settings.json": SETTINGS_F2,
            "CHANGELOG.md": changelog(UNREL_F2)},
           "Add bulk discount for large quantities", KENJI, "2024-03-07T10:21:00+09:00")
    commit({"config/settings.json": SETTINGS_F3, "CHANGELOG.md": changelog(UNREL_F3)},
           "Add WELCOME5 discount code and allow larger carts", KENJI, "2024-03-08T16:55:00+09:00")
    git("checkout", "-q", "main")
    commit({"config/settings.json": SETTINGS_MAIN, "CHANGELOG.md": changelog(UNREL_M3)},
           "Spring release settings: EUR, SPRING15, bigger carts", MARIA, "2024-03-11T08:30:00+01:00")
    git("checkout", "-q", "feature")
    commit({"shop/pricing.py": PRICING_F4, "tests/test_pricing.py": TESTS_F4, "CHANGELOG.md": changelog(UNREL_F4)},
           "Reject cart lines with a quantity below 1", KENJI, "2024-03-12T13:05:00+09:00")
    git("checkout", "-q", "main")
    git("pack-refs", "--all")
    git("gc", "-q")


if __name__ == "__main__":
    main()
