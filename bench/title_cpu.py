"""CPU of title and name derivation beside the rest of enrich, checkouts side by side (issue 55).

    .venv/bin/python -m bench.title_cpu --repo ../wt_before --repo . --rounds 3

Each checkout runs, in a process of its own, `enrich_batch` over the abstracts of bench.py's
input files (titles hidden) in batches of 128, as enrich's workers run them, and times
`_name_and_title` inside it (process CPU: the names, the title's candidates ranked and gated).
The checkouts alternate round by round; each row is the best of its rounds. A digest of the
titles and names tells whether two checkouts derive the same. One process and no MkDocs: the
derivation's own cost, where profile_build's shares depend on everything else the generator does.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.bench import DEFAULT_CORPUS, SIZES, abstracts_of, table, titled_inputs

# Run with the checkout as the working directory, so that its own `generator` is imported (a
# checkout from before bench/ existed has none of this module).
_WORKER = r"""
import hashlib, json, os, sys, time
import generator
if not os.path.realpath(generator.__file__).startswith(os.path.realpath(os.getcwd()) + os.sep):
    sys.exit(f"no generator package here: the one found is {generator.__file__}")
import generator.enrich.paper as paper
from generator.model import Origin, Record

abstracts, runs = json.loads(sys.stdin.read())
records = [Record(text, Origin("bench", i + 1, i + 1), "bench") for i, text in enumerate(abstracts)]
spent = [0.0]
derive = paper._name_and_title

def timed(*args, **kwargs):
    began = time.process_time()
    try:
        return derive(*args, **kwargs)
    finally:
        spent[0] += time.process_time() - began

paper._name_and_title = timed
paper.enrich_batch(records[:128])  # caches and lazy loads warmed, untimed
best = None
for _ in range(runs):
    spent[0] = 0.0
    began = time.process_time()
    papers = [p for k in range(0, len(records), 128) for p in paper.enrich_batch(records[k : k + 128])]
    total = time.process_time() - began
    best = (total, spent[0]) if best is None or total < best[0] else best
digest = hashlib.sha256("\n".join(f"{p.title}|{p.name or ''}" for p in papers).encode()).hexdigest()[:16]
print(json.dumps({"enrich": best[0], "titles": best[1], "papers": len(records), "digest": digest}))
"""


def abstracts(size: int, corpus: Path) -> list[str]:
    """The abstracts of bench.py's input of this size, as its untitled files hold them."""
    with tempfile.TemporaryDirectory() as folder:
        return [text for path in titled_inputs(size, corpus, Path(folder)) for text in abstracts_of(path)]


def measure(repo: Path, texts: list[str], runs: int) -> dict:
    """One checkout's best of `runs` enrich passes, in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _WORKER], cwd=repo, input=json.dumps([texts, runs]), capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"{repo}: the enrich pass failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repo", type=Path, action="append", help="a checkout to measure (repeat to compare; default: this one)")
    parser.add_argument("--size", type=int, choices=SIZES, default=4200, help="input size as in bench.py (default: 4200)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, the checkouts alternating (default: 3)")
    parser.add_argument("--runs", type=int, default=2, help="enrich passes per round in each process, best kept (default: 2)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help=f"folder of the corpus files (default: {DEFAULT_CORPUS})")
    parser.add_argument("--json", type=Path, default=None, help="also write every round's measurements as JSON here")
    args = parser.parse_args(argv)
    repos = [repo.resolve() for repo in (args.repo or [Path(__file__).resolve().parent.parent])]
    texts = abstracts(args.size, args.corpus)
    rounds: dict[str, list[dict]] = {str(repo): [] for repo in repos}
    for number in range(args.rounds):
        for repo in repos if number % 2 == 0 else reversed(repos):
            rounds[str(repo)].append(measure(repo, texts, args.runs))
    rows = []
    for repo, found in rounds.items():
        best = min(found, key=lambda m: m["enrich"])
        titles = best["titles"]
        rows.append(
            [
                repo,
                str(best["papers"]),
                f"{best['enrich']:.2f}",
                f"{titles:.2f}",
                f"{titles / best['enrich']:.0%}",
                f"{1000 * titles / best['papers']:.2f}",
                " ".join(sorted({m["digest"] for m in found})),
            ]
        )
    print(f"enrich in one process, best of {args.rounds} round(s) x {args.runs} pass(es), checkouts alternating:\n")
    print(table([["checkout", "papers", "enrich CPU s", "title+name CPU s", "share", "ms/abstract", "titles digest"], *rows]))
    if args.json:
        args.json.write_text(json.dumps(rounds, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
