"""Per-key token-bucket rate limiting."""
from .limiter import RateLimiter

__all__ = ["RateLimiter"]
