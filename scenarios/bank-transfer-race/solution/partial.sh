#!/bin/bash
# Plausible partial fix: locks deposit/withdraw and validates transfers up front,
# but keeps the src-then-dst lock order (opposite transfers still deadlock) and
# the unlocked audit.
set -euo pipefail
cat > /app/bank/core.py <<'PY'
"""The Bank: deposits, withdrawals, transfers and audits on top of a store."""
import threading


class InsufficientFunds(Exception):
    """The source account does not hold enough money."""


def _check_amount(amount):
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ValueError(f"amount must be a positive integer number of cents, got {amount!r}")


class Bank:
    def __init__(self, store):
        self.store = store
        self._accounts = list(store.accounts())
        self._locks = {account: threading.Lock() for account in self._accounts}

    def accounts(self):
        return list(self._accounts)

    def balance(self, account):
        return self.store.get(account)

    def deposit(self, account, amount):
        _check_amount(amount)
        with self._locks[account]:
            current = self.store.get(account)
            self.store.set(account, current + amount)

    def withdraw(self, account, amount):
        _check_amount(amount)
        with self._locks[account]:
            current = self.store.get(account)
            if current < amount:
                raise InsufficientFunds(f"{account} has {current}, needs {amount}")
            self.store.set(account, current - amount)

    def transfer(self, src, dst, amount):
        _check_amount(amount)
        if src not in self._locks or dst not in self._locks:
            raise KeyError(src if src not in self._locks else dst)
        if src == dst:
            raise ValueError("cannot transfer from an account to itself")
        with self._locks[src]:
            current = self.store.get(src)
            if current < amount:
                raise InsufficientFunds(f"{src} has {current}, needs {amount}")
            with self._locks[dst]:
                self.store.set(src, current - amount)
                self.store.set(dst, self.store.get(dst) + amount)

    def audit(self):
        """Total money held by all accounts."""
        return sum(self.store.get(account) for account in self._accounts)
PY
