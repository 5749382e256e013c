"""Small number theory shared by the games: primality, factors, coprimality."""

from __future__ import annotations

from functools import lru_cache
from math import gcd

__all__ = ["gcd", "coprime", "is_prime", "prime_factors", "primes_up_to", "next_prime"]


def coprime(a: int, b: int) -> bool:
    """True when a and b share no factor above 1 (gcd(m, 0) is m, so only 1 is coprime to 0)."""
    return gcd(a, b) == 1


# Prime Target's rings grow up to about 12 * 2**30 (1.3e10), where trial division
# would take tens of thousands of steps. Miller–Rabin is exact with the bases 2..13 below 3.4e12 and with 2..37 below 3.1e23.
_SMALL_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)


@lru_cache(maxsize=1 << 16)
def is_prime(n: int) -> bool:
    """Deterministic primality (exact for every n below 3.1e23, far beyond any game value)."""
    if n < 2:
        return False
    for p in _SMALL_PRIMES:
        if n % p == 0:
            return n == p
    if n < 41 * 41:
        return True
    d, s = n - 1, 0
    while not d & 1:
        d >>= 1
        s += 1
    bases = _SMALL_PRIMES[:6] if n < 3_474_749_660_383 else _SMALL_PRIMES
    for a in bases:
        x = pow(a, d, n)
        if x == 1 or x == n - 1:
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def prime_factors(n: int) -> tuple[int, ...]:
    """The distinct primes dividing n, ascending (empty for n < 2)."""
    factors = []
    f = 2
    while f * f <= n:
        if n % f == 0:
            factors.append(f)
            while n % f == 0:
                n //= f
        f += 1 if f == 2 else 2
    if n > 1:
        factors.append(n)
    return tuple(factors)


def primes_up_to(limit: int) -> list[int]:
    """All primes <= limit (sieve of Eratosthenes)."""
    if limit < 2:
        return []
    sieve = bytearray([1]) * (limit + 1)
    sieve[0] = sieve[1] = 0
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = bytearray(len(range(p * p, limit + 1, p)))
    return [i for i, flag in enumerate(sieve) if flag]


def next_prime(n: int) -> int:
    """The smallest prime >= n."""
    while not is_prime(n):
        n += 1
    return n
