"""Pagination and valuation helpers."""
from dataclasses import dataclass
from typing import List, Sequence

from .models import StockItem


class PageOutOfRange(ValueError):
    pass


@dataclass
class Page:
    number: int
    total_pages: int
    total_items: int
    items: List[StockItem]


def paginate(items: Sequence[StockItem], page: int = 1, per_page: int = 10) -> Page:
    """Return the 1-based ``page`` of ``items``.

    An empty list still has one (empty) page.
    """
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    count = len(items)
    total_pages = max(1, count // per_page + (1 if count % per_page > 1 else 0))
    if page < 1 or page > total_pages:
        raise PageOutOfRange(f"page {page} out of range (1-{total_pages})")
    start = (page - 1) * per_page
    return Page(
        number=page,
        total_pages=total_pages,
        total_items=count,
        items=list(items[start:start + per_page]),
    )


def to_cents(amount: float) -> int:
    """Convert a dollar amount to whole cents."""
    return int(amount * 100)


def format_cents(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"


def line_value(item: StockItem) -> str:
    """Stock value of one item (quantity x unit price) as a string with 2 decimals."""
    return format_cents(to_cents(item.quantity * item.unit_price))


def total_value(items: Sequence[StockItem]) -> str:
    """Sum of the stock values of all items, as a string with 2 decimals."""
    return format_cents(sum(to_cents(i.quantity * i.unit_price) for i in items))


def total_units(items: Sequence[StockItem]) -> int:
    return sum(i.quantity for i in items)
