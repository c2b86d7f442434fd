"""Statistics for game results: win rates with Wilson intervals, score summaries, seat advantage.

Standard library only, so the arena (and its strength ladder) and the benchmarks can all use it.

- :func:`wilson_interval` / :func:`proportion`: a win rate with its Wilson score interval
  (Wilson 1927; the interval recommended by Brown, Cai & DasGupta 2001 for binomial proportions,
  good even for rates near 0 or 1 and small samples, unlike the normal "Wald" interval).
- :func:`summarize`: mean, standard deviation (sample, ``n - 1``), standard error, quartiles and a
  normal-approximation interval for the mean of a list of numbers (scores, game lengths).
- :func:`seat_advantage`: win rate per seat with intervals, and a chi-square test of "every seat
  wins equally often".
- :func:`binomial_p_value`: an exact two-sided binomial test (is this win rate different from
  ``p0``?), and :func:`elo_difference`: the Elo gap a win rate corresponds to.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist


def z_value(confidence: float = 0.95) -> float:
    """The two-sided standard normal quantile for ``confidence`` (1.959964 for 0.95).

    Raises:
        ValueError: ``confidence`` not strictly between 0 and 1.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, not {confidence!r}")
    return NormalDist().inv_cdf(0.5 + confidence / 2.0)


def wilson_interval(successes: float, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval ``(low, high)`` for a proportion ``successes / trials``.

    ``successes`` may be fractional (a shared win counted as a share). With ``trials == 0``
    nothing is known and the interval is ``(0.0, 1.0)``.

    Example: 7 wins in 10 games at 95% gives about ``(0.3968, 0.8922)``.

    Raises:
        ValueError: negative counts, ``successes > trials``, or a bad ``confidence``.
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    z = z_value(confidence)
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2.0 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)) / denom
    # p = 0 or 1 give exactly 0 or 1 in exact arithmetic; avoid floating-point crumbs there.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@dataclass(frozen=True, slots=True)
class Proportion:
    """A rate with its Wilson interval.

    Attributes:
        successes: the count (wins); may be fractional for shared wins.
        trials: the number of games.
        rate: ``successes / trials`` (0.0 when there were no trials).
        low, high: the Wilson interval at ``confidence``.
        confidence: e.g. 0.95.
    """

    successes: float
    trials: int
    rate: float
    low: float
    high: float
    confidence: float = 0.95

    def to_json(self) -> dict[str, float]:
        """The fields as a JSON object."""
        return {
            "successes": self.successes,
            "trials": self.trials,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
            "confidence": self.confidence,
        }

    def __str__(self) -> str:
        return f"{self.rate:.1%} [{self.low:.1%}, {self.high:.1%}]"


def proportion(successes: float, trials: int, confidence: float = 0.95) -> Proportion:
    """``successes / trials`` with its Wilson interval (see :func:`wilson_interval`)."""
    low, high = wilson_interval(successes, trials, confidence)
    rate = successes / trials if trials else 0.0
    return Proportion(successes, trials, rate, low, high, confidence)


@dataclass(frozen=True, slots=True)
class Summary:
    """Mean and spread of a list of numbers.

    Attributes:
        n: how many values.
        mean: arithmetic mean (0.0 for no values).
        std: sample standard deviation (``n - 1`` in the denominator; 0.0 for ``n < 2``).
        stderr: standard error of the mean, ``std / sqrt(n)``.
        min, q1, median, q3, max: order statistics (quartiles by linear interpolation, the
            "inclusive" method of :func:`statistics.quantiles`).
        ci_low, ci_high: normal-approximation interval for the mean at ``confidence``.
    """

    n: int
    mean: float
    std: float
    stderr: float
    min: float
    q1: float
    median: float
    q3: float
    max: float
    ci_low: float
    ci_high: float
    confidence: float = 0.95

    def to_json(self) -> dict[str, float]:
        """The fields as a JSON object."""
        return {
            "n": self.n,
            "mean": self.mean,
            "std": self.std,
            "stderr": self.stderr,
            "min": self.min,
            "q1": self.q1,
            "median": self.median,
            "q3": self.q3,
            "max": self.max,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "confidence": self.confidence,
        }


def _quantile(sorted_values: Sequence[float], q: float) -> float:
    # Linear interpolation between closest ranks (numpy's default, statistics' "inclusive").
    pos = q * (len(sorted_values) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    frac = pos - lo
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * frac


def summarize(values: Sequence[float], confidence: float = 0.95) -> Summary:
    """Mean, spread and quartiles of ``values`` (see :class:`Summary`).

    An empty list gives a summary of zeros with ``n == 0``.

    Example: ``summarize([2, 4, 4, 4, 5, 5, 7, 9])`` has mean 5.0 and std 2.138 (sample).
    """
    n = len(values)
    if n == 0:
        return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, confidence)
    xs = sorted(float(v) for v in values)
    mean = math.fsum(xs) / n
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    std = math.sqrt(var)
    stderr = std / math.sqrt(n)
    half = z_value(confidence) * stderr
    return Summary(
        n=n,
        mean=mean,
        std=std,
        stderr=stderr,
        min=xs[0],
        q1=_quantile(xs, 0.25),
        median=_quantile(xs, 0.5),
        q3=_quantile(xs, 0.75),
        max=xs[-1],
        ci_low=mean - half,
        ci_high=mean + half,
        confidence=confidence,
    )


def chi2_sf(x: float, df: int) -> float:
    """The chi-square survival function ``P(X >= x)`` for ``df`` degrees of freedom.

    Computed with the regularized upper incomplete gamma function ``Q(df/2, x/2)`` (series for
    small ``x``, continued fraction otherwise; Numerical Recipes §6.2), accurate to ~1e-12.

    Raises:
        ValueError: ``df < 1``.
    """
    if df < 1:
        raise ValueError("df must be at least 1")
    if x <= 0.0:
        return 1.0
    a = df / 2.0
    z = x / 2.0
    log_prefix = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1.0:
        # Series for the lower function P(a, z); Q = 1 - P.
        term = 1.0 / a
        total = term
        k = a
        for _ in range(10_000):
            k += 1.0
            term *= z / k
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    # Lentz's continued fraction for Q(a, z).
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(log_prefix) * h)


@dataclass(frozen=True, slots=True)
class SeatAdvantage:
    """How often each seat wins, whoever sits there.

    Attributes:
        seats: a :class:`Proportion` per seat (wins of the player in that seat / games).
        mean_rate: the mean of the seat rates (what every seat would get without an advantage).
        advantage: ``rate - mean_rate`` per seat (positive: that seat wins more than its share).
        chi2: the chi-square statistic of the wins per seat against equal shares.
        p_value: ``P(chi2 >= observed)`` with ``seats - 1`` degrees of freedom (1.0 when no wins);
            small values (< 0.05) mean the seats are not equal.
    """

    seats: tuple[Proportion, ...]
    mean_rate: float
    advantage: tuple[float, ...]
    chi2: float
    p_value: float

    def to_json(self) -> dict[str, object]:
        """The fields as a JSON object."""
        return {
            "seats": [p.to_json() for p in self.seats],
            "mean_rate": self.mean_rate,
            "advantage": list(self.advantage),
            "chi2": self.chi2,
            "p_value": self.p_value,
        }


def seat_advantage(
    wins_by_seat: Sequence[float],
    games_by_seat: Sequence[int] | int,
    confidence: float = 0.95,
) -> SeatAdvantage:
    """Win rate per seat, its gap to the mean, and a chi-square test of equal seats.

    Args:
        wins_by_seat: wins of whoever sat in each seat (a shared win counts for each winner).
        games_by_seat: games played in each seat, or one number when every seat played every
            game (the usual case: seat ``s`` exists in every game).
        confidence: level of the Wilson intervals.

    Example: wins ``[60, 40]`` in 100 games each: rates 0.6 and 0.4, advantage ``+0.1/-0.1``,
    chi2 = 4.0 (expected 50 each), p = 0.0455.

    Raises:
        ValueError: no seats, mismatched lengths, or impossible counts.
    """
    k = len(wins_by_seat)
    if k == 0:
        raise ValueError("no seats")
    games = [games_by_seat] * k if isinstance(games_by_seat, int) else list(games_by_seat)
    if len(games) != k:
        raise ValueError("wins_by_seat and games_by_seat differ in length")
    props = tuple(proportion(w, g, confidence) for w, g in zip(wins_by_seat, games, strict=True))
    mean_rate = sum(p.rate for p in props) / k
    advantage = tuple(p.rate - mean_rate for p in props)
    # Expected wins of seat s under equal seats: its games times the pooled win rate.
    total_wins = float(sum(wins_by_seat))
    total_games = sum(games)
    chi2 = 0.0
    if total_wins > 0 and total_games > 0 and k > 1:
        pooled = total_wins / total_games
        for w, g in zip(wins_by_seat, games, strict=True):
            expected = g * pooled
            if expected > 0:
                chi2 += (w - expected) ** 2 / expected
        p_value = chi2_sf(chi2, k - 1)
    else:
        p_value = 1.0
    return SeatAdvantage(props, mean_rate, advantage, chi2, p_value)


def binomial_p_value(successes: int, trials: int, p0: float = 0.5) -> float:
    """Exact two-sided binomial test: the probability, if the true rate were ``p0``, of an
    outcome at most as likely as ``successes`` of ``trials`` (the "minlike" method, as R's
    ``binom.test`` and SciPy's ``binomtest``).

    Example: 60 of 100 against 0.5 gives 0.0569.

    Raises:
        ValueError: counts out of range or ``p0`` not in (0, 1).
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if not 0.0 < p0 < 1.0:
        raise ValueError("p0 must be strictly between 0 and 1")
    if trials == 0:
        return 1.0
    lp, lq = math.log(p0), math.log1p(-p0)
    lg = math.lgamma(trials + 1)

    def logpmf(k: int) -> float:
        return lg - math.lgamma(k + 1) - math.lgamma(trials - k + 1) + k * lp + (trials - k) * lq

    observed = logpmf(successes)
    # Relative tolerance as in R/SciPy so that equally likely outcomes count.
    cutoff = observed + math.log1p(1e-7)
    total = math.fsum(math.exp(v) for k in range(trials + 1) if (v := logpmf(k)) <= cutoff)
    return min(1.0, total)


def elo_difference(rate: float) -> float:
    """The Elo rating gap implied by a head-to-head win ``rate`` (``400 * log10(r / (1 - r))``);
    +inf / -inf at 1 and 0. Example: 0.75 gives +190.8.

    Raises:
        ValueError: ``rate`` outside [0, 1].
    """
    if not 0.0 <= rate <= 1.0:
        raise ValueError("rate must be in [0, 1]")
    if rate == 1.0:
        return math.inf
    if rate == 0.0:
        return -math.inf
    return 400.0 * math.log10(rate / (1.0 - rate))


__all__ = [
    "Proportion",
    "SeatAdvantage",
    "Summary",
    "binomial_p_value",
    "chi2_sf",
    "elo_difference",
    "proportion",
    "seat_advantage",
    "summarize",
    "wilson_interval",
    "z_value",
]
