"""The arena's one token bucket, and buckets kept per key (a peer address, a bot).

Pure: the caller says what time it is at every call (trio's clock on the trio side, the
asyncio loop's in the servicers, plain numbers in tests), so there is no clock to fake and no
thread to share one with.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

FORGET_FROM = 64
"""Buckets kept per key before the full ones are forgotten (see :class:`TokenBuckets`)."""


class TokenBucket:
    """``burst`` tokens at once, then ``rate`` more per second, never more than ``burst``."""

    __slots__ = ("at", "burst", "rate", "spent", "tokens")

    def __init__(self, burst: float, rate: float, now: float) -> None:
        self.burst = burst
        self.rate = rate
        self.tokens = float(burst)
        self.at = now
        self.spent = False
        """A take was refused since this was last set back to False: the one who counts
        decides what running out means (the arena refuses a bot's new streams until its
        bucket is full again)."""

    def tokens_at(self, now: float) -> float:
        return min(self.burst, self.tokens + (now - self.at) * self.rate)

    def take(self, now: float) -> bool:
        """One token if there is one (False, and :attr:`spent`, if not)."""
        self.tokens = self.tokens_at(now)
        self.at = now
        if self.tokens < 1:
            self.spent = True
            return False
        self.tokens -= 1
        return True

    def full(self, now: float) -> bool:
        return self.tokens_at(now) >= self.burst


class TokenBuckets(Generic[K]):
    """One :class:`TokenBucket` per key, made full on first use. Once ``forget_from`` are
    kept, every bucket full again is forgotten before a new one is made: a full bucket is the
    same as none, so keys that come and go (an attack from many addresses) leave nothing
    behind."""

    def __init__(self, burst: float, rate: float, forget_from: int = FORGET_FROM) -> None:
        self.burst = burst
        self.rate = rate
        self.forget_from = forget_from
        self._next_sweep = forget_from
        self._swept_at: float | None = None
        self.buckets: dict[K, TokenBucket] = {}

    def bucket(self, key: K, now: float) -> TokenBucket:
        """``key``'s bucket, the same object for as long as it is kept."""
        found = self.buckets.get(key)
        if found is not None:
            return found
        if len(self.buckets) >= self.forget_from and self._sweep_due(now):
            for other, bucket in list(self.buckets.items()):
                if bucket.full(now):
                    del self.buckets[other]
            self._next_sweep = max(self.forget_from, 2 * len(self.buckets))
            self._swept_at = now
        made = self.buckets[key] = TokenBucket(self.burst, self.rate, now)
        return made

    def _sweep_due(self, now: float) -> bool:
        """As many new keys as were kept at the last sweep, or the time to fill a bucket since
        it: a flood of new keys costs a constant time each, not a walk over every bucket each,
        and a bucket full again is forgotten within a filling time of the next new key."""
        if self._swept_at is None or len(self.buckets) >= self._next_sweep:
            return True
        return self.rate > 0 and now - self._swept_at >= self.burst / self.rate

    def allow(self, key: K, now: float) -> bool:
        """One token of ``key``'s bucket if it has one."""
        return self.bucket(key, now).take(now)

    def __len__(self) -> int:
        return len(self.buckets)

    def __getitem__(self, key: K) -> TokenBucket:
        return self.buckets[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self.buckets)
