"""The arena's one token bucket (handshakes per peer, answers to nothing per bot), on a clock
the test gives at every call."""

from __future__ import annotations

from arena.transport.services import HandshakeLimiter
from arena.transport.token_bucket import TokenBucket, TokenBuckets


def test_a_bucket_gives_its_burst_then_its_rate() -> None:
    bucket = TokenBucket(burst=3, rate=2.0, now=10.0)
    assert [bucket.take(10.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.spent
    assert not bucket.take(10.4)  # 0.8 of a token
    assert bucket.take(10.5)
    assert not bucket.take(10.5)


def test_a_bucket_never_holds_more_than_its_burst() -> None:
    bucket = TokenBucket(burst=2, rate=4.0, now=0.0)
    assert bucket.take(0.0)
    assert bucket.full(1000.0)
    assert bucket.tokens_at(1000.0) == 2
    assert [bucket.take(1000.0) for _ in range(3)] == [True, True, False]
    assert not bucket.full(1000.25) and bucket.full(1000.5)


def test_spent_stays_until_the_counter_sets_it_back() -> None:
    bucket = TokenBucket(burst=1, rate=1.0, now=0.0)
    assert bucket.take(0.0) and not bucket.spent
    assert not bucket.take(0.0) and bucket.spent
    assert bucket.take(5.0) and bucket.spent
    bucket.spent = False
    assert bucket.take(6.0) and not bucket.spent


def test_buckets_per_key_are_independent_and_kept_while_not_full() -> None:
    buckets: TokenBuckets[str] = TokenBuckets(burst=1, rate=1.0, forget_from=2)
    assert buckets.allow("a", 0.0) and not buckets.allow("a", 0.0)
    assert buckets.allow("b", 0.0)
    a = buckets["a"]
    assert buckets.allow("c", 0.5)  # a sweep: neither a nor b is full yet, both kept
    assert buckets["a"] is a and set(buckets) == {"a", "b", "c"}
    assert buckets.allow("d", 5.0)  # a filling time later: a, b and c are full, forgotten
    assert list(buckets) == ["d"]


def test_after_a_sweep_the_next_waits_for_as_many_new_keys_as_were_kept() -> None:
    buckets: TokenBuckets[int] = TokenBuckets(burst=4, rate=1.0, forget_from=4)
    for key in range(4):
        assert buckets.allow(key, 0.0)
    assert buckets.allow(4, 0.0)  # a sweep, nothing full: 4 kept, the next at 8
    for key in range(5, 8):  # 0-4 are full again, but no sweep before 8 kept or 4 s
        assert buckets.allow(key, 1.0)
    assert len(buckets) == 8
    assert buckets.allow(8, 1.0)  # the sweep forgets 0-4
    assert sorted(buckets) == list(range(5, 9))


def test_the_handshake_limiter_is_a_bucket_per_peer() -> None:
    limiter = HandshakeLimiter(rate=0.5, burst=2)
    assert [limiter.allow("ipv4:10.0.0.1", 0.0) for _ in range(3)] == [True, True, False]
    assert limiter.allow("ipv4:10.0.0.2", 0.0)
    assert isinstance(limiter["ipv4:10.0.0.1"], TokenBucket)
