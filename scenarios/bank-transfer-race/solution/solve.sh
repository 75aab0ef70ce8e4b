#!/bin/bash
# Reference fix: one lock per account held for the whole read-modify-write,
# locks always taken in one global order (no deadlock), validation before any
# write, and an audit that holds every account lock while it reads.
set -euo pipefail
cat > /app/bank/core.py <<'PY'
"""The Bank: deposits, withdrawals, transfers and audits on top of a store."""
import threading
from contextlib import ExitStack


class InsufficientFunds(Exception):
    """The source account does not hold enough money."""


def _check_amount(amount):
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"amount must be a positive integer number of cents, got {amount!r}")


class Bank:
    def __init__(self, store):
        self.store = store
        self._accounts = list(store.accounts())
        # A fixed global order for taking several locks: position in this list.
        self._rank = {account: i for i, account in enumerate(self._accounts)}
        self._locks = {account: threading.Lock() for account in self._accounts}

    def accounts(self):
        return list(self._accounts)

    def _lock(self, account):
        try:
            return self._locks[account]
        except (KeyError, TypeError):
            raise KeyError(account) from None

    def balance(self, account):
        with self._lock(account):
            return self.store.get(account)

    def deposit(self, account, amount):
        _check_amount(amount)
        with self._lock(account):
            current = self.store.get(account)
            self.store.set(account, current + amount)

    def withdraw(self, account, amount):
        _check_amount(amount)
        with self._lock(account):
            current = self.store.get(account)
            if current < amount:
                raise InsufficientFunds(f"{account} has {current}, needs {amount}")
            self.store.set(account, current - amount)

    def transfer(self, src, dst, amount):
        _check_amount(amount)
        src_lock, dst_lock = self._lock(src), self._lock(dst)
        if src == dst:
            raise ValueError("cannot transfer from an account to itself")
        first, second = (src_lock, dst_lock) if self._rank[src] < self._rank[dst] else (dst_lock, src_lock)
        with first, second:
            src_balance = self.store.get(src)
            if src_balance < amount:
                raise InsufficientFunds(f"{src} has {src_balance}, needs {amount}")
            dst_balance = self.store.get(dst)
            self.store.set(src, src_balance - amount)
            try:
                self.store.set(dst, dst_balance + amount)
            except BaseException:
                self.store.set(src, src_balance)  # undo the debit
                raise

    def audit(self):
        """Total money held by all accounts, as of one instant."""
        with ExitStack() as stack:
            for account in self._accounts:
                stack.enter_context(self._locks[account])
            return sum(self.store.get(account) for account in self._accounts)
PY
