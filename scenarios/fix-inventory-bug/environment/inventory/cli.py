"""Command line interface: ``python3 -m inventory [--data-dir DIR] COMMAND``."""
import argparse
import json
import sys

from .loader import load_inventory
from .report import PageOutOfRange, line_value, paginate, total_units, total_value

DEFAULT_DATA_DIR = "/app/data/warehouses"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="inventory", description="Multi-warehouse stock tool")
    parser.add_argument("--data-dir", default=DEFAULT_DATA_DIR, help="directory of warehouse CSV files")
    sub = parser.add_subparsers(dest="command", required=True)

    p_list = sub.add_parser("list", help="list items, one page at a time")
    p_list.add_argument("--page", type=int, default=1)
    p_list.add_argument("--per-page", type=int, default=10)

    sub.add_parser("total", help="print total units and total stock value")

    p_show = sub.add_parser("show", help="show one SKU as JSON")
    p_show.add_argument("sku")
    return parser


def cmd_list(items, args) -> int:
    try:
        page = paginate(items, args.page, args.per_page)
    except PageOutOfRange as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"Page {page.number} of {page.total_pages} ({page.total_items} items)")
    for item in page.items:
        print("\t".join([item.sku, item.name, str(item.quantity),
                         f"{item.unit_price:.2f}", ",".join(item.warehouses)]))
    return 0


def cmd_total(items, args) -> int:
    print(f"Items: {len(items)}")
    print(f"Total units: {total_units(items)}")
    print(f"Total value: {total_value(items)}")
    return 0


def cmd_show(items, args) -> int:
    wanted = args.sku.strip().upper()
    for item in items:
        if item.sku == wanted:
            data = item.to_dict()
            data["value"] = line_value(item)
            print(json.dumps(data, indent=2))
            return 0
    print(f"error: unknown SKU {args.sku}", file=sys.stderr)
    return 1


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    items = load_inventory(args.data_dir)
    handler = {"list": cmd_list, "total": cmd_total, "show": cmd_show}[args.command]
    return handler(items, args)
