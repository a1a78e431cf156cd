"""The ranking domain of Duchi, Mackey & Jordan (2010), *On the Consistency of Ranking
Algorithms* (ICML): preference DAGs and distributions over them, the difference graph and
the low-noise condition, the pairwise loss and its optimal set, surrogate risks, and an
exact minimum weighted feedback arc set solver.  Nodes are labelled ``1..m``."""

from symcal.ranking._check import CheckResult
from symcal.ranking.dags import count_dags, dags
from symcal.ranking.difference import difference_cycle, difference_graph, is_low_noise
from symcal.ranking.feedback_arc_set import (
    FasResult,
    brute_force_feedback_arc_set,
    min_feedback_arc_set,
    order_cost,
)
from symcal.ranking.io import describe_preferences, load_preferences, parse_preferences
from symcal.ranking.losses import (
    MinRisk,
    OrderConstraint,
    conditional_risk,
    in_lemma16_set,
    in_optimal_set,
    min_conditional_risk,
    optimal_set_description,
    pairwise_loss,
    scores_from_order,
)
from symcal.ranking.preference import (
    PreferenceDistribution,
    PreferenceGraph,
    as_weights,
    expected_weights,
    single_edge_distribution,
    unit_weights,
)
from symcal.ranking.surrogates import (
    PHI_EXP,
    PHI_LOGISTIC,
    PHI_SQUARED_HINGE,
    GapReport,
    NumericMinimum,
    NumericRisk,
    Phi,
    linear_surrogate_minimiser,
    linear_surrogate_risk,
    margin_surrogate_risk,
    minimise_surrogate_risk,
    numeric_gap_outside_optimal_set,
    numeric_margin_risk,
    numeric_pairwise_risk,
    order_of,
    pairwise_surrogate_risk,
)

__all__ = [
    "CheckResult",
    "PreferenceGraph",
    "PreferenceDistribution",
    "expected_weights",
    "as_weights",
    "unit_weights",
    "single_edge_distribution",
    "dags",
    "count_dags",
    "difference_graph",
    "difference_cycle",
    "is_low_noise",
    "pairwise_loss",
    "conditional_risk",
    "MinRisk",
    "min_conditional_risk",
    "in_optimal_set",
    "OrderConstraint",
    "optimal_set_description",
    "in_lemma16_set",
    "scores_from_order",
    "Phi",
    "PHI_EXP",
    "PHI_LOGISTIC",
    "PHI_SQUARED_HINGE",
    "pairwise_surrogate_risk",
    "margin_surrogate_risk",
    "linear_surrogate_risk",
    "linear_surrogate_minimiser",
    "NumericRisk",
    "NumericMinimum",
    "numeric_pairwise_risk",
    "numeric_margin_risk",
    "minimise_surrogate_risk",
    "order_of",
    "GapReport",
    "numeric_gap_outside_optimal_set",
    "FasResult",
    "min_feedback_arc_set",
    "brute_force_feedback_arc_set",
    "order_cost",
    "load_preferences",
    "parse_preferences",
    "describe_preferences",
]
