"""Token-bucket rate limiter (to be implemented).

See the task description for the full specification.
"""
import time


class RateLimiter:
    def __init__(self, rate, capacity, *, clock=time.monotonic, idle_ttl=None):
        raise NotImplementedError

    def allow(self, key, cost=1.0):
        raise NotImplementedError

    def tokens(self, key):
        raise NotImplementedError

    def retry_after(self, key, cost=1.0):
        raise NotImplementedError

    def evict_idle(self):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError
