"""Reading warehouse CSV files and combining them into one stock list."""
import csv
import os
from typing import Dict, List

from .models import StockItem, StockRecord, normalise_sku

REQUIRED_COLUMNS = ("sku", "name", "quantity", "unit_price")


def _read_warehouse(path: str) -> List[StockRecord]:
    warehouse = os.path.splitext(os.path.basename(path))[0]
    records = []
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in REQUIRED_COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(missing)}")
        for row in reader:
            if not (row.get("sku") or "").strip():
                continue
            records.append(
                StockRecord(
                    sku=normalise_sku(row["sku"]),
                    name=row["name"].strip(),
                    quantity=int(row["quantity"]),
                    unit_price=float(row["unit_price"]),
                    warehouse=warehouse,
                )
            )
    return records


def load_records(data_dir: str) -> List[StockRecord]:
    """Read every ``*.csv`` file in ``data_dir``; the file stem is the warehouse name."""
    records: List[StockRecord] = []
    for entry in sorted(os.listdir(data_dir)):
        if entry.endswith(".csv"):
            records.extend(_read_warehouse(os.path.join(data_dir, entry)))
    return records


def merge_stock(records: List[StockRecord]) -> List[StockItem]:
    """Combine records so that each SKU appears once.

    Quantities of the same SKU held in several warehouses add up; the item keeps
    the name and unit price of the first record seen and lists every warehouse
    (sorted, without repeats).
    """
    merged: Dict[str, StockItem] = {}
    for rec in records:
        current = merged.get(rec.sku)
        if current is None:
            merged[rec.sku] = StockItem(
                sku=rec.sku,
                name=rec.name,
                quantity=rec.quantity,
                unit_price=rec.unit_price,
                warehouses=[rec.warehouse],
            )
            continue
        warehouses = sorted(set(current.warehouses) | {rec.warehouse})
        merged[rec.sku] = StockItem(
            sku=current.sku,
            name=current.name,
            quantity=rec.quantity,
            unit_price=current.unit_price,
            warehouses=warehouses,
        )
    return [merged[sku] for sku in sorted(merged)]


def load_inventory(data_dir: str) -> List[StockItem]:
    return merge_stock(load_records(data_dir))
