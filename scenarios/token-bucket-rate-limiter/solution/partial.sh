#!/bin/bash
# Plausible partial attempt: the bucket arithmetic is right, but there is no lock
# and idle eviction scans every tracked key on every call.
set -euo pipefail
cat > /app/ratelimit/limiter.py <<'PY'
import math
import time


class RateLimiter:
    def __init__(self, rate, capacity, *, clock=time.monotonic, idle_ttl=None):
        if rate <= 0 or capacity <= 0 or (idle_ttl is not None and idle_ttl <= 0):
            raise ValueError("bad limiter parameters")
        self.rate = rate
        self.capacity = capacity
        self.clock = clock
        self.idle_ttl = idle_ttl
        self.now = None
        self.buckets = {}  # key -> [tokens, updated, last_activity]

    def _time(self):
        t = self.clock()
        if self.now is None or t > self.now:
            self.now = t
        return self.now

    def _evict(self, now):
        if self.idle_ttl is None:
            return 0
        idle = [k for k, b in self.buckets.items() if now - b[2] >= self.idle_ttl]
        for k in idle:
            del self.buckets[k]
        return len(idle)

    def _level(self, key, now):
        b = self.buckets.get(key)
        if b is None:
            return self.capacity
        b[0] = min(self.capacity, b[0] + (now - b[1]) * self.rate)
        b[1] = now
        return b[0]

    def allow(self, key, cost=1.0):
        if cost <= 0:
            raise ValueError("cost must be > 0")
        now = self._time()
        self._evict(now)
        if key not in self.buckets:
            self.buckets[key] = [self.capacity, now, now]
        b = self.buckets[key]
        b[2] = now
        level = self._level(key, now)
        if cost > self.capacity or cost > level + 1e-9:
            return False
        b[0] = max(0.0, level - cost)
        return True

    def tokens(self, key):
        now = self._time()
        self._evict(now)
        return float(self._level(key, now))

    def retry_after(self, key, cost=1.0):
        if cost <= 0:
            raise ValueError("cost must be > 0")
        now = self._time()
        self._evict(now)
        if cost > self.capacity:
            return math.inf
        level = self._level(key, now)
        return 0.0 if cost <= level + 1e-9 else (cost - level) / self.rate

    def evict_idle(self):
        return self._evict(self._time())

    def __len__(self):
        self._evict(self._time())
        return len(self.buckets)
PY
