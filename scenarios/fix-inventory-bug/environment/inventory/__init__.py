"""Tiny multi-warehouse inventory toolkit.

Public API:
    load_records(data_dir)        -> list[StockRecord]
    merge_stock(records)          -> list[StockItem]   (one item per SKU, sorted by SKU)
    load_inventory(data_dir)      -> list[StockItem]
    paginate(items, page, per_page) -> Page
    total_value(items)            -> str  (e.g. "1234.57")
    line_value(item)              -> str
"""
from .models import StockItem, StockRecord
from .loader import load_inventory, load_records, merge_stock
from .report import Page, PageOutOfRange, line_value, paginate, total_units, total_value

__all__ = [
    "StockItem",
    "StockRecord",
    "Page",
    "PageOutOfRange",
    "load_records",
    "merge_stock",
    "load_inventory",
    "paginate",
    "total_value",
    "total_units",
    "line_value",
]

__version__ = "1.4.2"
