"""Training a ``LearnedResolver`` from a project's reviewed documents, recall first.

An example is a reviewed document: its text and its stored spans after review. Every
candidate the reviewer ACCEPTED or REJECTED is a decision; ACCEPTED spans (the reviewer's
own additions included) are the gold the figures are measured against. The model is a
hand-written L2 logistic regression (full-batch Adam, fixed iterations from zeros: the
same decisions give the same weights).

The threshold is chosen by cross-validation over documents. Out-of-fold scores for every
decision come from ``folds`` fits; the threshold is the highest that keeps
``1 - (1 - target_recall) / 2`` of the accepted candidates among them (half the allowed loss
is a margin). Whether that procedure keeps ``target_recall`` is then checked honestly: each
fold is cut with a threshold chosen on the other folds' scores alone. A resolver that does
not keep it there is refused, and so is one that would drop nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from engine.core.domain import Document, Source, Span, SpanStatus
from engine.evaluation.tokens import coverage, tokenize
from engine.resolution.learned import (
    DIMENSIONS,
    LearnedResolver,
    protected,
    section_index,
    span_features,
)

MIN_DECISIONS = 200  # below this many reviewed candidates the default resolver is used
MIN_EACH = 20  # and at least this many accepted and this many rejected
L2 = 1e-3
ITERATIONS = 300
LEARNING_RATE = 0.05
# A span the model thinks more likely accepted than not is never dropped, whatever recall
# the reviewed documents would allow.
MAX_THRESHOLD = 0.5

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class ReviewedDocument:
    """A document and its stored spans after review (statuses carry the decisions)."""

    doc: Document
    spans: tuple[Span, ...]

    @property
    def decisions(self) -> list[tuple[Span, bool]]:
        """(candidate, accepted?) for every detector candidate the reviewer decided."""
        return [(s, s.status is SpanStatus.ACCEPTED) for s in self.spans
                if s.source is not Source.MANUAL
                and s.status in (SpanStatus.ACCEPTED, SpanStatus.REJECTED)]

    @property
    def gold(self) -> list[tuple[int, int]]:
        return [(s.start, s.end) for s in self.spans if s.status is SpanStatus.ACCEPTED]


@dataclass(frozen=True)
class CrossValidated:
    """What the resolver would have done to the reviewed documents, fold by fold."""

    token_precision_before: float | None
    token_recall_before: float | None
    token_precision_after: float | None
    token_recall_after: float | None
    span_recall: float  # share of accepted candidates kept
    rejected_dropped: int  # rejected candidates it drops (the gain)
    accepted_dropped: int  # accepted candidates it drops (the cost)


@dataclass(frozen=True)
class TrainOutcome:
    resolver: LearnedResolver | None  # None: keep the default resolver (see reason)
    reason: str  # in words, no PHI
    decisions: int
    accepted: int
    rejected: int
    documents: int
    cv: CrossValidated | None = None


def train_resolver(examples: Sequence[ReviewedDocument], *, min_decisions: int = MIN_DECISIONS,
                   target_recall: float = 0.99, folds: int = 5, seed: int = 0
                   ) -> TrainOutcome:
    """Learn a resolver from reviewed documents, or say why not."""
    if not 0.0 < target_recall <= 1.0:
        raise ValueError(f"target recall {target_recall} outside (0, 1]")
    if folds < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, not {folds}")
    ordered = sorted(examples, key=lambda e: e.doc.id)  # the caller's order does not matter
    rows: list[list[tuple[int, float]]] = []
    labels: list[bool] = []
    guarded: list[bool] = []
    doc_of: list[int] = []
    for index, example in enumerate(ordered):
        sections = section_index(example.doc.text)
        for span, was_accepted in example.decisions:
            rows.append(span_features(example.doc, span, sections))
            labels.append(was_accepted)
            guarded.append(protected(example.doc, span))
            doc_of.append(index)
    y = np.array(labels, dtype=bool)
    accepted, rejected = int(y.sum()), int((~y).sum())
    counts = {"decisions": len(rows), "accepted": accepted, "rejected": rejected,
              "documents": len(ordered)}

    def refuse(reason: str, cv: CrossValidated | None = None) -> TrainOutcome:
        return TrainOutcome(None, reason, len(rows), accepted, rejected, len(ordered), cv)

    if len(rows) < min_decisions:
        return refuse(f"{len(rows)} review decisions; the learned resolver needs at least "
                      f"{min_decisions}: the default resolver is used")
    if min(accepted, rejected) < MIN_EACH:
        return refuse(f"{accepted} accepted and {rejected} rejected candidates; the learned "
                      f"resolver needs at least {MIN_EACH} of each")
    folds = min(folds, len(ordered))
    if folds < 2:
        return refuse("the review decisions come from one document; cross-validation needs "
                      "at least two")
    x = _matrix(rows)
    protect = np.array(guarded, dtype=bool)
    docs = np.array(doc_of)
    order = np.random.default_rng(seed).permutation(len(ordered))
    fold_of_doc = np.empty(len(ordered), dtype=int)
    fold_of_doc[order] = np.arange(len(ordered)) % folds
    fold = fold_of_doc[docs]
    scores = np.empty(len(rows))
    for k in range(folds):
        test = fold == k
        w, b = fit_logistic(x[~test], y[~test])
        scores[test] = _predict(x[test], w, b)
    inner = 1.0 - (1.0 - target_recall) / 2
    drop = np.zeros(len(rows), dtype=bool)
    for k in range(folds):
        test = fold == k
        cut = choose_threshold(scores[~test], y[~test], protect[~test], inner)
        drop[test] = (scores[test] < cut) & ~protect[test]
    cv = _figures(ordered, y, drop)
    if cv.span_recall < target_recall:
        return refuse(f"refused: under cross-validation the learned resolver kept "
                      f"{cv.span_recall:.3f} of the accepted candidates, below the "
                      f"{target_recall} it must keep; the default resolver is used", cv)
    if cv.rejected_dropped == 0:
        return refuse("refused: under cross-validation the learned resolver dropped no "
                      "rejected candidate, so it would change nothing", cv)
    w, b = fit_logistic(x, y)
    threshold = choose_threshold(scores, y, protect, inner)
    resolver = LearnedResolver.from_arrays(w.tolist(), b, threshold, counts)
    return TrainOutcome(resolver, f"learned from {len(rows)} review decisions in "
                                  f"{len(ordered)} documents", len(rows), accepted, rejected,
                        len(ordered), cv)


@dataclass(frozen=True)
class Rows:
    """Sparse feature rows: ``index[i, j]`` and ``value[i, j]``, padded with value 0."""

    index: npt.NDArray[np.int64]
    value: FloatArray

    def __getitem__(self, mask: BoolArray) -> Rows:
        return Rows(self.index[mask], self.value[mask])

    def dot(self, weights: FloatArray) -> FloatArray:
        out: FloatArray = (weights[self.index] * self.value).sum(axis=1)
        return out

    def transpose_dot(self, error: FloatArray) -> FloatArray:
        out = np.bincount(self.index.ravel(), (self.value * error[:, None]).ravel(),
                          minlength=DIMENSIONS)
        return out.astype(np.float64)


def fit_logistic(x: Rows, y: BoolArray, *, l2: float = L2, iterations: int = ITERATIONS,
                 learning_rate: float = LEARNING_RATE) -> tuple[FloatArray, float]:
    """Weights and bias minimising mean log-loss + l2/2 |w|^2 (Adam, full batch, from 0).
    Columns no row uses get no gradient but the decay, so they stay 0."""
    target = y.astype(np.float64)
    theta = np.zeros(DIMENSIONS + 1)  # weights, then the bias
    m = np.zeros_like(theta)
    v = np.zeros_like(theta)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    n = max(len(target), 1)
    for step in range(1, iterations + 1):
        p = _sigmoid(x.dot(theta[:-1]) + theta[-1])
        error = (p - target) / n
        grad = np.empty_like(theta)
        grad[:-1] = x.transpose_dot(error) + l2 * theta[:-1]
        grad[-1] = error.sum()
        m = beta1 * m + (1 - beta1) * grad
        v = beta2 * v + (1 - beta2) * grad * grad
        theta -= learning_rate * (m / (1 - beta1 ** step)) / (np.sqrt(v / (1 - beta2 ** step))
                                                              + eps)
    return theta[:-1].copy(), float(theta[-1])


def choose_threshold(scores: FloatArray, accepted: BoolArray, protect: BoolArray,
                     keep: float) -> float:
    """The highest threshold (drop when score < threshold) that keeps at least ``keep`` of
    the accepted candidates; protected candidates are kept whatever their score."""
    open_ = ~protect
    acc = np.sort(scores[accepted & open_])
    total = int(accepted.sum())
    if total == 0:
        return 0.0
    may_lose = math.floor((1.0 - keep) * total + 1e-9)
    # Dropping below the (may_lose + 1)-th lowest accepted score loses at most may_lose.
    if may_lose >= len(acc):
        return MAX_THRESHOLD
    return min(float(acc[may_lose]), MAX_THRESHOLD)


def _matrix(rows: list[list[tuple[int, float]]]) -> Rows:
    width = max((len(r) for r in rows), default=0)
    index = np.zeros((len(rows), width), dtype=np.int64)
    value = np.zeros((len(rows), width))
    for i, features in enumerate(rows):
        for j, (column, number) in enumerate(features):
            index[i, j] = column
            value[i, j] = number
    return Rows(index, value)


def _sigmoid(z: FloatArray) -> FloatArray:
    out: FloatArray = 1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0)))
    return out


def _predict(x: Rows, w: FloatArray, b: float) -> FloatArray:
    return _sigmoid(x.dot(w) + b)


def _figures(ordered: Sequence[ReviewedDocument], y: BoolArray, drop: BoolArray
             ) -> CrossValidated:
    """Token precision/recall of the candidates before and after the CV drops."""
    tp = [0, 0]
    pred = [0, 0]
    gold_tokens = 0
    row = 0
    for example in ordered:
        decided = example.decisions
        mine = drop[row:row + len(decided)]
        row += len(decided)
        text = example.doc.text
        tokens = tokenize(text)
        gold = coverage(len(text), example.gold)
        before = coverage(len(text), [(s.start, s.end) for s, _ in decided])
        after = coverage(len(text), [(s.start, s.end) for (s, _), d in zip(decided, mine,
                                                                          strict=True) if not d])
        for start, end in tokens:
            is_gold = gold.find(1, start, end) != -1
            gold_tokens += is_gold
            for k, cov in enumerate((before, after)):
                if cov.find(1, start, end) != -1:
                    pred[k] += 1
                    tp[k] += is_gold
    kept_accepted = int((y & ~drop).sum())
    return CrossValidated(
        token_precision_before=_ratio(tp[0], pred[0]), token_recall_before=_ratio(tp[0],
                                                                                  gold_tokens),
        token_precision_after=_ratio(tp[1], pred[1]), token_recall_after=_ratio(tp[1],
                                                                                gold_tokens),
        span_recall=kept_accepted / max(int(y.sum()), 1),
        rejected_dropped=int((~y & drop).sum()), accepted_dropped=int((y & drop).sum()))


def _ratio(num: int, den: int) -> float | None:
    return num / den if den else None
