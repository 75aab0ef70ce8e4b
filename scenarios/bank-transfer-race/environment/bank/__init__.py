"""Account ledger service core.

    from bank import Bank, MemoryStore, InsufficientFunds

    bank = Bank(MemoryStore({"alice": 100, "bob": 0}))
    bank.transfer("alice", "bob", 30)
"""
from .core import Bank, InsufficientFunds
from .store import MemoryStore

__all__ = ["Bank", "InsufficientFunds", "MemoryStore"]
