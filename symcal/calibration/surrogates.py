"""Built-in target losses and surrogates of the calibration literature.

Multiclass surrogates on ``u ∈ R^n`` with the ``argmax`` link, for the 0-1 loss:

* :func:`crammer_singer` -- ``max_j (1[j≠y] + u_j - u_y)`` (Crammer & Singer 2001); calibrated for 0-1
  only where ``max_y p_y > 1/2`` (Zhang 2004; Tewari & Bartlett 2007).
* :func:`weston_watkins` -- ``Σ_{j≠y} max(0, 1 + u_j - u_y)`` (Weston & Watkins 1999); not calibrated
  for n >= 3.
* :func:`lee_lin_wahba` -- ``Σ_{j≠y} max(0, 1 + u_j)`` on ``Σ u = 0`` (Lee, Lin & Wahba 2004); calibrated.
* :func:`one_vs_all_hinge` -- ``Σ_j max(0, 1 - s_yj u_j)``, ``s_yj = ±1``; not calibrated for n >= 3.
* :func:`squared` -- ``Σ_j (u_j - 1[j=y])^2``; calibrated.

Top-k classification (predictions are the k-subsets of labels, in ``itertools.combinations``
order; :func:`topk_error` is ``1[y not in S]``, :func:`topk_link` predicts the k largest scores):

* :func:`topk_hinge_alpha` -- ``max(0, (1/k) Σ_{j<=k} (1 + u_{\\y} - u_y)_[j])``, and
* :func:`topk_hinge_beta` -- ``(1/k) Σ_{j<=k} max(0, (1 + u_{\\y} - u_y)_[j])`` (Lapin, Hein & Schiele
  2015), shown not top-k calibrated by Yang & Koyejo (2020).

Structured prediction with a set function ``ell`` of the mistakes (:func:`lovasz_hinge`):
the Lovász hinge ``ell_bar((1 - y ⊙ u)_+)`` of Yu & Blaschko (2015) with the sign link; consistent
for its target only when ``ell`` is modular (Finocchiaro, Frongillo & Nueve 2022).

Ramaswamy, Agarwal & Tewari 2013, Theorem 3: for ``L = A B^T + c``,
``psi*(y, u) = Σ_i (u_i - α_yi)^2`` with ``pred*(u) ∈ argmin_t <u, β_t> + c_t`` is L-calibrated
(:func:`ramaswamy_quadratic`).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

from symcal.calibration.problem import Surrogate
from symcal.exact import fraction_str

__all__ = ["zero_one", "crammer_singer", "weston_watkins", "lee_lin_wahba", "one_vs_all_hinge", "squared",
           "topk_error", "topk_link", "topk_hinge_alpha", "topk_hinge_beta", "lovasz_hinge",
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


def _topk(n: Any, k: Any) -> tuple[int, int]:
    from symcal.errors import invalid

    n = _n(n)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k < n:
        raise invalid("k", k, f"a whole number 1 <= k < n = {n}")
    if math.comb(n, k) > 70:
        raise invalid("k", k, f"at most 70 k-subsets of the {n} labels (C({n}, {k}) = {math.comb(n, k)})")
    return n, k


def topk_error(n: int, k: int) -> list[list[int]]:
    """The top-k error: ``L[y][S] = 1[y not in S]`` for the k-subsets S of 1..n (in
    ``itertools.combinations`` order)."""
    n, k = _topk(n, k)
    return [[int(y not in S) for S in itertools.combinations(range(1, n + 1), k)] for y in range(1, n + 1)]


def topk_link(n: int, k: int) -> dict[str, Any]:
    """Predict the k-subset S of the k largest scores: the closed region ``u_i >= u_j`` for i in S,
    j not in S (ties belong to several regions; the engine checks what that allows)."""
    n, k = _topk(n, k)
    return {"regions": [[f"u{i} >= u{j}" for i in S for j in range(1, n + 1) if j not in S]
                        for S in itertools.combinations(range(1, n + 1), k)]}


def _mean_of_top(y: int, n: int, k: int, sizes: range) -> str:
    others = [j for j in range(1, n + 1) if j != y]
    pieces = ["0"] + [f"({' + '.join(f'1 + u{j} - u{y}' for j in S)})/{k}"
                      for r in sizes for S in itertools.combinations(others, r)]
    return f"Max({', '.join(pieces)})"


def topk_hinge_alpha(n: int, k: int) -> Surrogate:
    """Lapin, Hein & Schiele (2015), top-k hinge alpha: ``max(0, (1/k) Σ_{j=1}^k (1 + u_j' - u_y)_[j])``
    over the scores ``u_j'`` of the other labels, largest first (a max over k-subsets)."""
    n, k = _topk(n, k)
    return Surrogate(n, [_mean_of_top(y, n, k, range(k, k + 1)) for y in range(1, n + 1)], (),
                     name=f"topk_hinge_alpha_{n}_{k}")


def topk_hinge_beta(n: int, k: int) -> Surrogate:
    """Lapin, Hein & Schiele (2015), top-k hinge beta: ``(1/k) Σ_{j=1}^k max(0, (1 + u_j' - u_y)_[j])``
    (a max over the subsets of at most k other labels)."""
    n, k = _topk(n, k)
    return Surrogate(n, [_mean_of_top(y, n, k, range(1, k + 1)) for y in range(1, n + 1)], (),
                     name=f"topk_hinge_beta_{n}_{k}")


def lovasz_hinge(d: int, ell: Any) -> tuple[list[list[Fraction]], Surrogate, dict[str, Any]]:
    """The Lovász hinge (Yu & Blaschko 2015) for a set function ``ell`` of the mistaken coordinates:
    labels and predictions are the sign vectors ``{+1, -1}^d`` (in ``itertools.product((1, -1))``
    order), the target loss is ``ell({i : y_i != yhat_i})``, the surrogate ``ell_bar((1 - y ⊙ u)_+)``
    with ``ell_bar`` the Lovász extension, and the link the sign of ``u`` (closed orthants).

    ``ell``: a callable on frozensets of 0-based coordinates, or a dict of them; it must be
    normalised (``ell(∅) = 0``), non-decreasing and submodular -- checked on every pair of sets --
    so that ``ell_bar(s) = max`` over the greedy vertices ``w >= 0`` of ``<w, s>``, and with
    ``s = (a)_+`` a single max of affine pieces.  Returns ``(loss, surrogate, link)``."""
    from symcal.errors import invalid
    from symcal.exact import to_fraction

    if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 4:
        raise invalid("d", d, "a whole number of coordinates 1 <= d <= 4")
    sets = [frozenset(S) for r in range(d + 1) for S in itertools.combinations(range(d), r)]
    val = {S: to_fraction(ell[S] if isinstance(ell, dict) else ell(S), f"ell({sorted(S)})") for S in sets}
    if val[frozenset()] != 0:
        raise invalid("ell", f"ell(empty set) = {val[frozenset()]}", "a normalised set function: ell(empty set) = 0")
    for A in sets:
        for B in sets:
            if A <= B and val[A] > val[B]:
                raise invalid("ell", f"ell({sorted(A)}) > ell({sorted(B)})", "a non-decreasing set function")
            if val[A] + val[B] < val[A | B] + val[A & B]:
                raise invalid("ell", f"sets {sorted(A)} and {sorted(B)}", "a submodular set function")
    verts = set()
    for perm in itertools.permutations(range(d)):
        w = [Fraction(0)] * d
        prev: frozenset[int] = frozenset()
        for i in perm:
            w[i] = val[prev | {i}] - val[prev]
            prev = prev | {i}
        verts.add(tuple(w))
    labels = list(itertools.product((1, -1), repeat=d))
    rows = []
    for y in labels:
        pieces = {"0"}
        for w in verts:
            for r in range(1, d + 1):
                for T in itertools.combinations(range(d), r):
                    terms = [f"{'' if w[i] == 1 else fraction_str(w[i]) + '*'}(1 {'-' if y[i] > 0 else '+'} u{i + 1})"
                             for i in T if w[i] != 0]
                    if terms:
                        pieces.add(" + ".join(terms))
        rows.append(f"Max({', '.join(sorted(pieces))})")
    loss = [[val[frozenset(i for i in range(d) if y[i] != yh[i])] for yh in labels] for y in labels]
    link = {"regions": [[f"u{i + 1} {'>=' if y[i] > 0 else '<='} 0" for i in range(d)] for y in labels]}
    return loss, Surrogate(d, rows, (), name=f"lovasz_hinge_{d}"), link


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
