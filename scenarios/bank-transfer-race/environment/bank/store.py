"""Balance stores.

A store keeps the balance (an int, in cents) of a fixed set of accounts and has
three methods:

    accounts() -> list of account names
    get(account) -> int           (KeyError for an unknown account)
    set(account, balance) -> None (KeyError for an unknown account)

In production the store is a remote key-value service: every call takes a
while and calls from different threads run concurrently. The store makes each
single get() or set() atomic, nothing more.
"""
import threading
import time


class MemoryStore:
    """In-memory store; `latency` seconds are spent in every get() and set()."""

    def __init__(self, balances, latency=0.0):
        self._data = dict(balances)
        self._mutex = threading.Lock()
        self.latency = latency

    def accounts(self):
        with self._mutex:
            return list(self._data)

    def get(self, account):
        with self._mutex:
            value = self._data[account]
        if self.latency:
            time.sleep(self.latency)
        return value

    def set(self, account, balance):
        if self.latency:
            time.sleep(self.latency)
        with self._mutex:
            if account not in self._data:
                raise KeyError(account)
            self._data[account] = balance
