#!/bin/bash
# Reference implementation: OrderedDict kept in last-activity order gives O(1)
# amortised eviction; one lock guards all state (the clock is read under it).
set -euo pipefail
cat > /app/ratelimit/limiter.py <<'PY'
"""Per-key token-bucket rate limiter with idle-key eviction."""
import math
import threading
import time
from collections import OrderedDict

_EPS = 1e-9


def _positive(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a number > 0, got {value!r}")
    return float(value)


class _Bucket:
    __slots__ = ("tokens", "updated", "active")

    def __init__(self, tokens, now):
        self.tokens = tokens
        self.updated = now
        self.active = now


class RateLimiter:
    def __init__(self, rate, capacity, *, clock=time.monotonic, idle_ttl=None):
        self._rate = _positive("rate", rate)
        self._capacity = _positive("capacity", capacity)
        self._ttl = None if idle_ttl is None else _positive("idle_ttl", idle_ttl)
        self._clock = clock
        self._now = -math.inf
        self._buckets = OrderedDict()  # key -> _Bucket, oldest activity first
        self._lock = threading.Lock()

    # -- internals (call with the lock held) ---------------------------------
    def _tick(self):
        t = self._clock()
        if t > self._now:
            self._now = t
        return self._now

    def _evict(self, now):
        if self._ttl is None:
            return 0
        removed = 0
        buckets = self._buckets
        while buckets:
            key, bucket = next(iter(buckets.items()))
            if now - bucket.active >= self._ttl:
                del buckets[key]
                removed += 1
            else:
                break
        return removed

    def _level(self, bucket, now):
        if now > bucket.updated:
            bucket.tokens = min(self._capacity, bucket.tokens + (now - bucket.updated) * self._rate)
            bucket.updated = now
        return bucket.tokens

    def _current(self, key, now):
        bucket = self._buckets.get(key)
        return self._capacity if bucket is None else self._level(bucket, now)

    # -- public API ---------------------------------------------------------
    def allow(self, key, cost=1.0):
        cost = _positive("cost", cost)
        with self._lock:
            now = self._tick()
            self._evict(now)
            bucket = self._buckets.get(key)
            if bucket is None:
                bucket = _Bucket(self._capacity, now)
                self._buckets[key] = bucket
            else:
                self._buckets.move_to_end(key)
            bucket.active = now
            level = self._level(bucket, now)
            if cost > self._capacity + _EPS or cost > level + _EPS:
                return False
            bucket.tokens = max(0.0, level - cost)
            return True

    def tokens(self, key):
        with self._lock:
            now = self._tick()
            self._evict(now)
            return float(self._current(key, now))

    def retry_after(self, key, cost=1.0):
        cost = _positive("cost", cost)
        with self._lock:
            now = self._tick()
            self._evict(now)
            if cost > self._capacity + _EPS:
                return math.inf
            level = self._current(key, now)
            if cost <= level + _EPS:
                return 0.0
            return (cost - level) / self._rate

    def evict_idle(self):
        with self._lock:
            return self._evict(self._tick())

    def __len__(self):
        with self._lock:
            self._evict(self._tick())
            return len(self._buckets)
PY
