"""Small number theory shared by the games: primality, factors, coprimality."""

from __future__ import annotations

from functools import lru_cache
from math import gcd

__all__ = ["gcd", "coprime", "is_prime", "prime_factors", "primes_up_to", "next_prime"]


def coprime(a: int, b: int) -> bool:
    """True when a and b share no factor above 1 (gcd(m, 0) is m, so only 1 is coprime to 0)."""
    return gcd(a, b) == 1


@lru_cache(maxsize=4096)
def is_prime(n: int) -> bool:
    """Trial division; the games never ask about numbers beyond a few million."""
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0 or n % 3 == 0:
        return False
    f = 5
    while f * f <= n:
        if n % f == 0 or n % (f + 2) == 0:
            return False
        f += 6
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
