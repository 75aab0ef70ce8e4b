"""Data classes used across the inventory package."""
from dataclasses import dataclass, field
from typing import List


def normalise_sku(raw: str) -> str:
    """SKUs are case-insensitive; store them trimmed and upper-case."""
    return raw.strip().upper()


@dataclass(frozen=True)
class StockRecord:
    """One row of one warehouse file."""

    sku: str
    name: str
    quantity: int
    unit_price: float
    warehouse: str


@dataclass
class StockItem:
    """A SKU with its stock aggregated over every warehouse that holds it."""

    sku: str
    name: str
    quantity: int
    unit_price: float
    warehouses: List[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "sku": self.sku,
            "name": self.name,
            "quantity": self.quantity,
            "unit_price": f"{self.unit_price:.2f}",
            "warehouses": list(self.warehouses),
        }
