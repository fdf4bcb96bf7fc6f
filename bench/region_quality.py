"""How well the topic map's broad region labels name their regions, per corpus (issue 12).

Usage (from the repository root; the corpora live in ../shared/corpus/):

    .venv/bin/python -m bench.region_quality                        # the bench corpora, each and all
    .venv/bin/python -m bench.region_quality --corpora ijcai2020,ijcai2024 --samples 5
    .venv/bin/python -m bench.region_quality --repo /tmp/before     # another checkout (before/after)
    .venv/bin/python -m bench.region_quality --grouped-by semantic    # regions on meaning vectors instead of words

Each corpus is loaded and linked as a site build does it (derived fields cached under
--cache), then grouped into broad regions and named as the map does. "all" is the five
corpora of the 4,200-paper benchmark site together (bench/bench.py). Columns:

    papers      papers in the corpus
    named       broad regions with a label / all broad regions
    in named    share of papers in a named region (the others sit in unnamed mixes)
    cover       papers of named regions that carry their region's first label term (a tag or
                key phrase), over all papers of named regions
    title       papers of named regions whose title shares a word with that term (5-letter
                stems, 'learning', 'model' and such left out): titles are the authors' own
                words, so this does not reward naming a region after its derived tags
    IJCAI NMI   normalised mutual information of regions (named or not) and IJCAI's primary
                areas, over the papers that have one (IJCAI corpora only)
    sub-area    IJCAI papers in a region that carry its commonest IJCAI sub-area keyword,
                summed over regions (IJCAI keywords are area labels, e.g. 'ML: Federated learning')

--samples N prints N titles of every region (a fixed sample), for checking labels by eye.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from sklearn.metrics import normalized_mutual_info_score

BENCH = ("iclr2024", "ijcai2024", "colm2025", "corl2025", "iclr2018")
_WORD = re.compile(r"[a-z0-9]+")


def use_checkout(repo: Path) -> None:
    """Make `generator` the package of the checkout `repo` for the rest of this process: loaded
    from its folder by importlib before anything imports it, every `generator.…` import then
    resolves in that folder (its code, data and templates), whatever PYTHONPATH or the
    editable install would find."""
    folder = (repo / "generator").resolve()
    if "generator" in sys.modules:  # this process imported one already: it must be the same
        loaded = Path(sys.modules["generator"].__file__ or "").resolve().parent
        if loaded != folder:
            raise SystemExit(f"generator was imported from {loaded} before --repo {repo} could be used")
        return
    spec = importlib.util.spec_from_file_location("generator", folder / "__init__.py", submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:
        raise SystemExit(f"--repo {repo}: no generator package there")
    module = importlib.util.module_from_spec(spec)
    sys.modules["generator"] = module
    spec.loader.exec_module(module)


def load(repo: Path, files: list[Path], cache: Path):
    use_checkout(repo)
    from generator import pipeline
    from generator.errors import Report
    from generator.link.corpus import link
    from generator.runtime.runcache import RunCache
    from generator.sources.readers import input_files

    settings, report = pipeline.Settings(), Report()
    papers = pipeline.load(input_files(files, report), settings, report, RunCache(cache, None))  # in the order a build reads them
    return link(papers, settings.related)


def broad_regions(papers, grouped_by: str = "words") -> tuple[list[set[str]], list[tuple[str | None, np.ndarray]]]:
    """Every broad region as (label or None, members), as the map makes them; grouped on the
    papers' words (the map's topic vectors) or, with `grouped_by` 'table' or 'semantic', on
    their meaning vectors from that source (issue 52: does meaning make better regions?)."""
    from generator.explore import data as explore

    terms = [explore._terms(p) for p in papers]
    frequency = Counter(t for paper_terms in terms for t in paper_terms)
    k = explore._region_count(len(papers), *explore.BROAD)
    if hasattr(explore, "named_regions"):
        from generator.explore.topics import topic_vectors

        features = topic_vectors(papers) if grouped_by == "words" else meaning_vectors(papers, grouped_by)
        named = explore.named_regions(terms, features, k, frequency, broad=True)
    else:  # a checkout from before named_regions: regions on the related-papers graph
        from generator.explore.topicmap import topic_vectors

        features = topic_vectors(papers, explore.TOPIC_DIMS)
        named, taken = [], set()
        for members in explore._groups(terms, features, k, frequency):
            label = explore._label(terms, members, frequency, 2, taken) if len(members) >= 3 else None
            if label:
                taken.add(label)
                named.append((label, members))
    labelled = {tuple(m) for _, m in named}
    unnamed = [(None, m) for m in explore._groups(terms, features, k, frequency) if tuple(m) not in labelled]
    return terms, [*named, *unnamed]


def meaning_vectors(papers, related_by: str) -> np.ndarray:
    """The papers' meaning vectors as a build finds them (the user's vector cache)."""
    from lab.evaluate import meanings_of

    return np.asarray(meanings_of(papers, related_by), dtype=np.float64)


def stems(text: str) -> set[str]:
    from generator.explore.data import _LOOSE

    return {w[:5] for w in _WORD.findall(text.casefold()) if w not in _LOOSE | {"models", "model", "systems", "methods"}}


def ijcai_truth(papers, corpus: Path) -> dict[int, tuple[str, list[str]]]:
    """Paper index -> (primary area, sub-area keywords) for IJCAI papers that have an area."""
    truth = {}
    for path in corpus.glob("ijcai*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("primary_area"):
                truth[(path.name, record["id"])] = (record["primary_area"], record["keywords"])
    return {i: truth[key] for i, p in enumerate(papers) if (key := (Path(p.origin.file).name, p.origin.record_id)) in truth}


def figures(name: str, papers, corpus: Path, samples: int, grouped_by: str = "words") -> list[str]:
    terms, regions = broad_regions(papers, grouped_by)
    named = [(label, m) for label, m in regions if label]
    in_named = sum(len(m) for _, m in named)
    carry = sum(label.split(" · ")[0] in terms[i] for label, m in named for i in m)
    titled = sum(bool(stems(label.split(" · ")[0]) & stems(papers[i].title)) for label, m in named for i in m)
    truth = ijcai_truth(papers, corpus)
    nmi = purity = ""
    if truth:
        region_of = {i: r for r, (_, m) in enumerate(regions) for i in m}
        pairs = [(region_of[i], area) for i, (area, _) in truth.items() if i in region_of]
        nmi = f"{normalized_mutual_info_score([a for _, a in pairs], [r for r, _ in pairs]):.3f}"
        top = sum(
            Counter(k for i in m if i in truth for k in truth[i][1]).most_common(1)[0][1] for _, m in regions if any(i in truth for i in m)
        )
        purity = f"{top / len(pairs):.3f}"
    if samples:
        rng = random.Random(7)
        for label, members in regions:
            share = f", {np.mean([label.split(' · ')[0] in terms[i] for i in members]):.0%} carry it" if label else ""
            print(f"\n{name}: {label or '(unnamed)'} ({len(members)} papers{share})")
            for i in sorted(rng.sample(list(members), min(samples, len(members)))):
                print(f"   - {papers[i].title[:110]}")
    return [
        name,
        str(len(papers)),
        f"{len(named)}/{len(regions)}",
        f"{in_named / len(papers):.2f}",
        f"{carry / max(in_named, 1):.3f}",
        f"{titled / max(in_named, 1):.3f}",
        nmi,
        purity,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--corpora", default=",".join([*BENCH, "all"]), help="corpus names, comma-separated; 'all' = the bench corpora together"
    )
    parser.add_argument("--corpus", type=Path, default=Path("../shared/corpus"), help="the shared corpora (default ../shared/corpus)")
    parser.add_argument(
        "--repo",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the checkout whose generator is measured (imported from its folder in this process)",
    )
    parser.add_argument("--cache", type=Path, default=Path(".cache/region-quality"), help="derived fields cached here between runs")
    parser.add_argument("--samples", type=int, default=0, help="titles to print per region")
    parser.add_argument(
        "--grouped-by",
        choices=("words", "table", "semantic"),
        default="words",
        help="group broad regions on the papers' words (as the map does) or on their meaning vectors from the built-in table or the sentence model",
    )
    args = parser.parse_args(argv)
    from bench.search_bench import table  # its table printer (search_bench needs Playwright: imported here)

    rows = []
    for name in args.corpora.split(","):
        files = [args.corpus / f"{c}.jsonl" for c in (BENCH if name == "all" else (name,))]
        rows.append(figures(name, load(args.repo.resolve(), files, args.cache.resolve()), args.corpus, args.samples, args.grouped_by))
    print(table([["corpus", "papers", "named", "in named", "cover", "title", "IJCAI NMI", "sub-area"], *rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
