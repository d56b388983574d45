"""`clearnote evaluate`: score predictions (or a project's reviewed spans) against gold."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.api import evaluate, evaluate_project, load_gold, load_predictions
from engine.cli.common import EXIT_OK
from engine.cli.passphrase import add_passphrase_options, open_project
from engine.core.errors import UsageError
from engine.core.labels import Label
from engine.core.policies import POLICIES, get_policy


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("evaluate", help="score predictions against gold annotations")
    p.add_argument("--gold", type=Path, required=True,
                   help="gold JSONL with text and spans (with --project: a folder of JSONL "
                        "and/or BRAT .txt+.ann files)")
    p.add_argument("--pred", type=Path,
                   help="output of `clearnote detect` or `clearnote deid`")
    p.add_argument("--project", type=Path,
                   help="score a project's reviewed spans instead of a --pred file")
    p.add_argument("--ignore-labels", nargs="*", metavar="LABEL",
                   help="gold/predicted labels to leave out (any schema)")
    p.add_argument("--policy", choices=sorted(POLICIES),
                   help="score only the labels that are PHI under this policy")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap rounds for CIs")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    add_passphrase_options(p)
    p.set_defaults(func=cmd_evaluate)


def cmd_evaluate(args: argparse.Namespace) -> int:
    options = {"ignore_labels": args.ignore_labels or (), "bootstrap": args.bootstrap,
               "seed": args.seed, "phi_labels": _policy_labels(args.policy)}
    if args.project is not None:
        if args.pred is not None:
            raise UsageError("--project scores the project's spans; leave out --pred")
        report = evaluate_project(open_project(args), args.gold, **options)
    else:
        if args.pred is None:
            raise UsageError("give --pred P.jsonl, or --project P.clearnote")
        report = evaluate(load_gold(args.gold), load_predictions(args.pred), **options)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.to_text())
    return EXIT_OK


def _policy_labels(policy: str | None) -> frozenset[Label] | None:
    if policy is None:
        return None
    return get_policy(policy).phi_labels
