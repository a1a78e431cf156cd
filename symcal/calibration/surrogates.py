"""Built-in target losses and surrogates of the calibration literature.

Multiclass surrogates on ``u ∈ R^n`` with the ``argmax`` link, for the 0-1 loss:

* :func:`crammer_singer` -- ``max_j (1[j≠y] + u_j - u_y)`` (Crammer & Singer 2001); calibrated for 0-1
  only where ``max_y p_y > 1/2`` (Zhang 2004; Tewari & Bartlett 2007).
* :func:`weston_watkins` -- ``Σ_{j≠y} max(0, 1 + u_j - u_y)`` (Weston & Watkins 1999); not calibrated
  for n >= 3.
* :func:`lee_lin_wahba` -- ``Σ_{j≠y} max(0, 1 + u_j)`` on ``Σ u = 0`` (Lee, Lin & Wahba 2004); calibrated.
* :func:`one_vs_all_hinge` -- ``Σ_j max(0, 1 - s_yj u_j)``, ``s_yj = ±1``; not calibrated for n >= 3.
* :func:`squared` -- ``Σ_j (u_j - 1[j=y])^2``; calibrated.

Ramaswamy, Agarwal & Tewari 2013, Theorem 3: for ``L = A B^T + c``,
``psi*(y, u) = Σ_i (u_i - α_yi)^2`` with ``pred*(u) ∈ argmin_t <u, β_t> + c_t`` is L-calibrated
(:func:`ramaswamy_quadratic`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from symcal.calibration.problem import Surrogate
from symcal.exact import fraction_str

__all__ = ["zero_one", "crammer_singer", "weston_watkins", "lee_lin_wahba", "one_vs_all_hinge", "squared",
           "ramaswamy_quadratic", "paper_loss"]


def _n(n: Any) -> int:
    from symcal.errors import invalid

    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 20:
        raise invalid("n", n, "a whole number of classes 2 <= n <= 20")
    return n


def zero_one(n: int) -> list[list[int]]:
    """The n x n 0-1 loss matrix."""
    n = _n(n)
    return [[int(y != t) for t in range(n)] for y in range(n)]


def crammer_singer(n: int) -> Surrogate:
    n = _n(n)
    rows = []
    for y in range(1, n + 1):
        pieces = ["0"] + [f"1 + u{j} - u{y}" for j in range(1, n + 1) if j != y]
        rows.append(f"Max({', '.join(pieces)})")
    return Surrogate(n, rows, (), name=f"crammer_singer_{n}")


def weston_watkins(n: int) -> Surrogate:
    n = _n(n)
    rows = [" + ".join(f"Max(0, 1 + u{j} - u{y})" for j in range(1, n + 1) if j != y) for y in range(1, n + 1)]
    return Surrogate(n, rows, (), name=f"weston_watkins_{n}")


def lee_lin_wahba(n: int) -> Surrogate:
    n = _n(n)
    rows = [" + ".join(f"Max(0, 1 + u{j})" for j in range(1, n + 1) if j != y) for y in range(1, n + 1)]
    return Surrogate(n, rows, (" + ".join(f"u{j}" for j in range(1, n + 1)) + " = 0",), name=f"lee_lin_wahba_{n}")


def one_vs_all_hinge(n: int) -> Surrogate:
    n = _n(n)
    rows = [" + ".join(f"Max(0, 1 - u{j})" if j == y else f"Max(0, 1 + u{j})" for j in range(1, n + 1))
            for y in range(1, n + 1)]
    return Surrogate(n, rows, (), name=f"one_vs_all_hinge_{n}")


def squared(n: int) -> Surrogate:
    n = _n(n)
    rows = [" + ".join(f"(u{j} - 1)**2" if j == y else f"u{j}**2" for j in range(1, n + 1)) for y in range(1, n + 1)]
    return Surrogate(n, rows, (), name=f"squared_{n}")


def ramaswamy_quadratic(decomposition: Any, n_labels: int | None = None) -> tuple[Surrogate, dict[str, Any]]:
    """Theorem 3's surrogate and link for ``L = α β^T + c`` (a
    :class:`symcal.ranking.loss_matrix.Decomposition`): ``psi(y, u) = Σ_i (u_i - α_yi)^2`` on ``R^d``
    and ``{"linear": β, "offset": c}``."""
    dec = decomposition
    d = dec.d
    n = dec.alpha.shape[0] if n_labels is None else n_labels
    rows = []
    for a in range(n):
        al = dec.alpha_of(a)
        rows.append(" + ".join(f"(u{i + 1} - ({fraction_str(al[i])}))**2" for i in range(d)))
    k = dec.beta.shape[0]
    B = [[fraction_str(x) for x in dec.beta_of(t)] for t in range(k)]
    link = {"linear": B, "offset": [fraction_str(Fraction(dec.c))] * k}
    return Surrogate(d, rows, (), name="ramaswamy_theorem3"), link


def paper_loss(name: str, r: int, **params: Any) -> tuple[Any, Any]:
    """A paper loss of :mod:`symcal.ranking.subset_losses` and its decomposition (P@q, PD, MAP, ...)."""
    from symcal.ranking.subset_losses import named_loss

    nl = named_loss(name, r, **params)
    return nl.matrix, nl.decomposition
