"""A blind judgement of tags and related papers, repeatable by anyone (issues 15 and 33).

    python -m lab.judging capture --label before --out before.json [--seed 15] [NAME ...]
    python -m lab.judging items before.json after.json --out round1 [--known verdicts.tsv]
    python -m lab.judging count verdicts.tsv before.json after.json
    python -m lab.judging ceiling before.json --out ceiling         # then: found ceiling.tsv before.json after.json
    python -m lab.judging majority judge1.tsv judge2.tsv judge3.tsv --out majority.tsv
    python -m lab.judging frontier now.json --judge 'verdicts-*-judgeA.tsv' --judge 'verdicts-*-judgeB.tsv' [--target 0.10]

The rubric and the whole protocol are in docs/dev/judging.md. In short:

    capture   draws `--count` papers per corpus with random.Random(seed) (lab/sample_check.py:
              titles and keywords hidden, tag models fitted without the corpus's venue) and
              writes every paper's tags and related papers, with the version's `--label`
    items     makes one item of every distinct tag and related link over all the captures
              given (an id hashed from the paper and the item, so a tag two versions share is
              judged once), shuffles each paper's items (seed 33), and writes round/brief.md:
              for the judge, with no version label, each paper's abstract and author keywords,
              then its items; and round/items.json (the answer key: which version has which
              item). With --known, items judged before keep their verdict and are left out, and
              up to 30 of those verdicts are shown to the judge as calibration
    count     reads the judge's verdicts (lines `ID ok` or `ID wrong`, as the brief asks) and
              prints per capture and corpus how many tags and links were judged wrong, with
              the wrong ones listed; an item without a verdict is reported, not guessed
    ceiling   writes ceiling/brief.md: each drawn paper and its whole venue's titles, for a
              judge to name every right link there is (one line per paper, `key<TAB>n n? ...`)
    found     reads those lines: the most right links lists of the captures' length could
              show, and how many of the named right links each capture's lists hold
    majority  makes one verdicts file of several judges' (the majority; a tie is wrong)
    frontier  reads two or more judges' verdicts on the captures' tags: how often the judges
              agree, and what hiding the least evidenced tags would buy: the share judged wrong
              among the tags kept, and the right tags lost, down to `--target` (decision 0026)
    wrong     the captures' tags judged wrong (each tag the mean of its judges' verdicts) per
              corpus and pooled, with 90% Wilson intervals; tags no judge judged are counted apart
"""

from __future__ import annotations

import glob
import hashlib
import json
import math
import random
import re
import subprocess
import textwrap
from collections import defaultdict
from pathlib import Path

import click
import numpy as np

from lab import options

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_CORPORA = ("corl2022", "3dv2025", "iclr2017")  # issue 15's draw, none of them tuned on
SHUFFLE_SEED = 33
CALIBRATION = 30
ABSTRACT_START = 300  # characters of a related paper's abstract shown beside its title
OPENING_WORDS = 25  # words of an untitled paper's abstract in a ceiling judge's list
VERDICT = re.compile(r"^\s*([0-9a-f]{10})\s+(ok|wrong)\b", re.IGNORECASE)


def item_id(paper_key: str, kind: str, value: str) -> str:
    """The same item (a tag, or a link to a paper) of the same paper has the same id in every capture."""
    return hashlib.sha1(f"{paper_key}\0{kind}\0{value.casefold()}".encode()).hexdigest()[:10]


def paper_key(paper: dict) -> str:
    return f"{paper['corpus']}#{paper['record']}"


def items_of(capture: dict) -> list[dict]:
    """Every tag and related link of a capture as an item (id, paper, kind, what is judged)."""
    out = []
    for paper in capture["papers"]:
        key = paper_key(paper)
        for tag in paper["tags"]:
            out.append({"id": item_id(key, "tag", tag), "paper": key, "kind": "tag", "tag": tag})
        for link in paper["related"]:
            out.append(
                {
                    "id": item_id(key, "link", str(link["record"])),
                    "paper": key,
                    "kind": "link",
                    "strong": link.get("strong", True),  # captures before decision 0030: every link shown as related
                    "title": link["title"],
                    "abstract": link["abstract"][:ABSTRACT_START],
                }
            )
    return out


def read_verdicts(path: Path) -> dict[str, str]:
    verdicts = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = VERDICT.match(line)
        if match:
            verdicts[match.group(1)] = match.group(2).lower()
    return verdicts


def brief(papers: dict[str, dict], items: dict[str, list[dict]], calibration: list[tuple[dict, str]]) -> str:
    """The judge's page: the rubric's one-line form, calibration verdicts, then paper by paper."""
    lines = [
        "# Judge these tags and related papers",
        "",
        "Rubric (docs/dev/judging.md): a **tag** is wrong when a reader browsing that tag's page",
        "would not want this paper there (named in passing, too broad to be about it, not a topic, a",
        "cut phrase). A **link** is wrong when a researcher reading this paper would not suggest the",
        "other one (they share only a broad field, a word, or a method named in passing).",
        "",
        "Answer with one line per item: `ID ok` or `ID wrong`, optionally followed by a short reason.",
        "",
    ]
    if calibration:
        lines += ["## Verdicts given before (calibration)", ""]
        for item, verdict in calibration:
            what = f"tag '{item['tag']}'" if item["kind"] == "tag" else f"link to '{item['title']}'"
            lines.append(f"- {what} on a paper: {verdict}")
        lines.append("")
    for key, paper_items in items.items():
        paper = papers[key]
        lines += [f"## Paper {key}", "", f"Author keywords: {'; '.join(paper['keywords']) or '(none)'}", ""]
        lines += textwrap.wrap(paper["abstract"], 100) + [""]
        for item in paper_items:
            if item["kind"] == "tag":
                lines.append(f"- `{item['id']}` tag: **{item['tag']}**")
            else:
                lines.append(f"- `{item['id']}` related: **{item['title']}**: {item['abstract']}...")
        lines.append("")
    return "\n".join(lines) + "\n"


@click.group()
def main() -> None:
    """Capture, shuffle and count a blind judgement (docs/dev/judging.md)."""


@main.command()
@click.argument("names", nargs=-1)
@click.option("--label", required=True, help="The version's name (kept from the judge; used by count).")
@click.option("--out", "out_path", required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.option("--seed", default=15, show_default=True, type=int)
@click.option("--count", default=10, show_default=True, type=click.IntRange(1), help="Papers per corpus.")
@options.related_by("Related papers by words, or by words and meaning from the built-in table or the sentence model (`make model`).")
def capture(names: tuple[str, ...], label: str, out_path: Path, corpus_dir: Path, seed: int, count: int, related_by: str) -> None:
    """Draw papers and write their tags and related papers as this checkout derives them."""
    from lab import sample_check, train_tags

    corpora = train_tags.keyword_corpora(corpus_dir)
    papers = [p for name in names or DEFAULT_CORPORA for p in sample_check.drawn(corpus_dir, name, seed, count, corpora, related_by)]
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    record = {"label": label, "commit": commit, "seed": seed, "count": count, "related_by": related_by, "papers": papers}
    out_path.write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    tags, links = sum(len(p["tags"]) for p in papers), sum(len(p["related"]) for p in papers)
    click.echo(f"{out_path}: {len(papers)} papers, {tags} tags, {links} links ({label}, {commit or 'no git'})")


@main.command()
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(path_type=Path, file_okay=False))
@click.option("--known", type=click.Path(exists=True, path_type=Path, dir_okay=False), help="Verdicts given before (kept).")
@click.option("--only", type=click.Choice(["tag", "link"]), help="Judge only tags, or only links (the rest counts as not judged).")
def items(captures: tuple[Path, ...], out_dir: Path, known: Path | None, only: str | None) -> None:
    """One shuffled item per distinct tag and link of the captures; the judge's brief."""
    loaded = [json.loads(path.read_text(encoding="utf-8")) for path in captures]
    verdicts = read_verdicts(known) if known else {}
    papers: dict[str, dict] = {}
    every: dict[str, dict] = {}
    versions: dict[str, list[str]] = defaultdict(list)
    for capture_ in loaded:
        for paper in capture_["papers"]:
            papers.setdefault(paper_key(paper), paper)
        for item in items_of(capture_):
            if only and item["kind"] != only:
                continue
            every.setdefault(item["id"], item)
            versions[item["id"]].append(capture_["label"])
    shuffler = random.Random(SHUFFLE_SEED)
    by_paper: dict[str, list[dict]] = defaultdict(list)
    for item in every.values():
        if item["id"] not in verdicts:
            by_paper[item["paper"]].append(item)
    for paper_items in by_paper.values():
        shuffler.shuffle(paper_items)
    order = sorted(by_paper)
    shuffler.shuffle(order)
    judged = [(every[i], v) for i, v in sorted(verdicts.items()) if i in every]
    calibration = shuffler.sample(judged, min(CALIBRATION, len(judged)))
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "brief.md").write_text(brief(papers, {k: by_paper[k] for k in order}, calibration), encoding="utf-8")
    key = {"captures": [str(p) for p in captures], "items": [{**item, "in": versions[item["id"]]} for item in every.values()]}
    (out_dir / "items.json").write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    new = sum(len(v) for v in by_paper.values())
    click.echo(f"{out_dir}/brief.md: {new} items to judge on {len(order)} papers ({len(every) - new} judged before)")


@main.command()
@click.argument("verdicts_path", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
def count(verdicts_path: Path, captures: tuple[Path, ...]) -> None:
    """Wrong tags and links per capture and corpus, from the judge's verdicts."""
    verdicts = read_verdicts(verdicts_path)
    for path in captures:
        capture_ = json.loads(path.read_text(encoding="utf-8"))
        click.echo(f"\n## {capture_['label']} ({capture_.get('commit') or path.name})\n")
        click.echo("| corpus | tags wrong | links wrong | strong links wrong | not judged |\n|---|---|---|---|---|")
        rows: dict[str, dict[str, list]] = defaultdict(lambda: {"tag": [], "link": [], "missing": []})
        for item in items_of(capture_):
            corpus = item["paper"].split("#")[0]
            verdict = verdicts.get(item["id"])
            if verdict is None:
                rows[corpus]["missing"].append(item)
            else:
                rows[corpus][item["kind"]].append((item, verdict == "wrong"))
        wrong_lists = []
        for corpus, row in rows.items():
            tags, links = row["tag"], row["link"]
            tag_wrong, link_wrong = sum(w for _, w in tags), sum(w for _, w in links)
            strong = [w for i, w in links if i["strong"]]
            click.echo(
                f"| {corpus} | {tag_wrong} of {len(tags)} | {link_wrong} of {len(links)} | {sum(strong)} of {len(strong)} | {len(row['missing'])} |"
            )
            wrong_lists += [f"- {corpus}: tag '{i['tag']}' ({i['paper']})" for i, w in tags if w]
            wrong_lists += [f"- {corpus}: link to '{i['title']}' ({i['paper']})" for i, w in links if w]
        click.echo("\nJudged wrong:\n" + ("\n".join(wrong_lists) or "(none)"))


CEILING_RULES = """For each paper below (its author keywords and abstract), list EVERY other paper of the same
conference (from that conference's full title list, given after its papers) that would be a
RIGHT link: the other paper addresses the same problem, uses or studies the same specific
method, or one would be read for the other; NOT when the two share only a broad field ('both
robot learning', 'both use diffusion'), a word, or a method named in passing. Judge from the
titles (the other abstracts are not given); include a title when it is likely right, and mark
an unsure one with '?'.

Answer with one line per paper: `corpus#record<TAB>n1 n2? n3 ...` (the record numbers of its
right links; an empty list when there is none)."""
CEILING_LINE = re.compile(r"^\s*(\S+#\d+)\t?(.*)$")


@main.command()
@click.argument("capture_path", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--out", "out_dir", required=True, type=click.Path(path_type=Path, file_okay=False))
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
def ceiling(capture_path: Path, out_dir: Path, corpus_dir: Path) -> None:
    """A judge's page for how many right links a draw allows: each drawn paper, then its whole
    venue's titles by record number (docs/dev/judging.md, "A ceiling for links")."""
    capture_ = json.loads(capture_path.read_text(encoding="utf-8"))
    lines = ["# Which papers of the same conference would a researcher suggest?", "", CEILING_RULES, ""]
    for corpus in dict.fromkeys(p["corpus"] for p in capture_["papers"]):
        lines += [f"# Conference {corpus}", ""]
        for paper in (p for p in capture_["papers"] if p["corpus"] == corpus):
            lines += [f"## Paper {paper_key(paper)}", "", f"Author keywords: {'; '.join(paper['keywords']) or '(none)'}", ""]
            lines += textwrap.wrap(paper["abstract"], 100) + [""]
        lines += [f"## All titles of {corpus} (record number: title)", ""]
        with (corpus_dir / f"{corpus}.jsonl").open(encoding="utf-8") as records:
            lines += [f"- {n}: {_title_or_opening(json.loads(line))}" for n, line in enumerate(records) if line.strip()]
        lines.append("")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "brief.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    click.echo(f"{out_dir / 'brief.md'}: {len(capture_['papers'])} papers; the judge writes one line per paper")


def _title_or_opening(record: dict) -> str:
    """A record's title; for an untitled one (an unlabelled venue), its abstract's first words."""
    if record.get("title"):
        return record["title"]
    words = (record.get("abstract") or "").split()
    return "(untitled) " + " ".join(words[:OPENING_WORDS]) + (" …" if len(words) > OPENING_WORDS else "")


@main.command()
@click.argument("judges", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--out", "out_path", required=True, type=click.Path(path_type=Path, dir_okay=False))
def majority(judges: tuple[Path, ...], out_path: Path) -> None:
    """One verdict per item from several judges' files: the majority of those who judged it
    (a tie is 'wrong': a link the judges split on is not one to vouch for)."""
    lines = [
        f"{item}\t{verdict}\t{wrong} of {judged} judges said wrong"
        for item, (verdict, wrong, judged) in sorted(majority_of([read_verdicts(path) for path in judges]).items())
    ]
    out_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    click.echo(f"{out_path}: {len(lines)} items")


def majority_of(judges: list[dict[str, str]]) -> dict[str, tuple[str, int, int]]:
    """Per item any judge judged: the majority verdict of those who judged it (a tie is 'wrong'),
    how many said wrong, how many judged it."""
    out = {}
    for item in set().union(*judges):
        said = [verdicts[item] for verdicts in judges if item in verdicts]
        wrong = sum(v == "wrong" for v in said)
        out[item] = ("wrong" if 2 * wrong >= len(said) else "ok", wrong, len(said))
    return out


def read_ceiling(path: Path) -> dict[str, tuple[set[int], set[int]]]:
    """Per paper key, the record numbers of its sure and its unsure right links."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = CEILING_LINE.match(line)
        if match:
            numbers = match.group(2).replace(",", " ").split()
            sure = {int(n) for n in numbers if n.isdigit()}
            unsure = {int(n[:-1]) for n in numbers if n.endswith("?") and n[:-1].isdigit()}
            out[match.group(1)] = (sure, unsure)
    return out


@main.command()
@click.argument("ceiling_path", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
def found(ceiling_path: Path, captures: tuple[Path, ...]) -> None:
    """The most right links any list of the captures' length could show, and how many of the
    right links the ceiling judge named each capture's lists hold."""
    right = read_ceiling(ceiling_path)
    for path in captures:
        capture_ = json.loads(path.read_text(encoding="utf-8"))
        shown = best_sure = best_any = sure_found = unsure_found = strong_found = 0
        for paper in capture_["papers"]:
            sure, unsure = right.get(paper_key(paper), (set(), set()))
            records = {link["record"] for link in paper["related"]}
            strong_found += len({link["record"] for link in paper["related"] if link.get("strong", True)} & sure)
            shown += len(records)
            best_sure += min(len(records), len(sure))
            best_any += min(len(records), len(sure | unsure))
            sure_found += len(records & sure)
            unsure_found += len(records & unsure)
        total_sure = sum(len(s) for s, _ in right.values())
        total_unsure = sum(len(u) for _, u in right.values())
        click.echo(
            f"{capture_['label']}: {shown} links shown; at most {best_sure} surely right "
            f"({best_any} counting the unsure); they hold {sure_found} of {total_sure} sure and "
            f"{unsure_found} of {total_unsure} unsure right links; the strong links hold {strong_found} of the sure ones"
        )


def agreement(judges: list[dict[str, str]]) -> tuple[int, float, float]:
    """Items every judge gave a verdict, the share on which all agree, and (two judges) Cohen's
    kappa: agreement beyond what their rates of 'wrong' give by chance."""
    shared = set.intersection(*(set(j) for j in judges))
    if not shared:
        return 0, 0.0, 0.0
    agreed = sum(len({j[i] for j in judges}) == 1 for i in shared) / len(shared)
    if len(judges) != 2:
        return len(shared), agreed, float("nan")
    rates = [sum(j[i] == "wrong" for i in shared) / len(shared) for j in judges]
    chance = rates[0] * rates[1] + (1 - rates[0]) * (1 - rates[1])
    return len(shared), agreed, (agreed - chance) / (1 - chance) if chance < 1 else 1.0


def judges_from(judge_globs: tuple[str, ...]) -> list[dict[str, str]]:
    """Each judge's verdicts, from the verdict files one glob matches (one glob per judge)."""
    judges = []
    for pattern in judge_globs:
        paths = sorted(map(Path, glob.glob(pattern)))
        if not paths:
            raise click.ClickException(f"no verdict file matches {pattern}")
        judges.append({i: v for path in paths for i, v in read_verdicts(path).items()})
    return judges


def wilson(wrong: float, n: int, z: float = 1.645) -> tuple[float, float]:
    """The 90% Wilson score interval of a share `wrong` of `n` (a half verdict counts half)."""
    if n == 0:
        return 0.0, 1.0
    share = wrong / n
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def auc(scores: np.ndarray, right: np.ndarray) -> float:
    """The chance that an item judged right scores above one judged wrong (ties count half)."""
    pos, neg = scores[right], scores[~right]
    if not len(pos) or not len(neg):
        return float("nan")
    greater = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return float(greater / (len(pos) * len(neg)))


def evidence_rank(paper: dict, tag: str) -> tuple[int, int, float]:
    """How sure the version is of a tag, smallest first to hide: named by its name or a spelling
    of two words or more (2), only by one-word aliases (1), not a vocabulary tag (0); then how
    often named (up to 3); then the evidence probability (decision 0023's table)."""
    from generator.enrich.tagging import mentions

    own = [m for m in mentions(paper["abstract"]) if m.tag == tag]
    alias_only = bool(own) and all(" " not in m.spelling.strip() and m.spelling.casefold() != tag.casefold() for m in own)
    tier = 0 if not own else 1 if alias_only else 2
    return tier, min(len(own), 3), paper.get("tag_scores", {}).get(tag, 0.0)


def hidden_to_reach(wrong_best_first: list[float], target: float) -> tuple[int, float, float] | None:
    """Tags judged wrong (each 0 to 1), best first: the most of them kept with at most `target`
    judged wrong among those kept, and the right and wrong tags hidden below; None if none."""
    total, wrong_total = len(wrong_best_first), sum(wrong_best_first)
    for kept in range(total, 0, -1):
        wrong_kept = sum(wrong_best_first[:kept])
        if wrong_kept / kept <= target:
            hidden_wrong = wrong_total - wrong_kept
            return kept, (total - kept) - hidden_wrong, hidden_wrong
    return None


def exceeding(n: int, rate: float, target: float) -> float:
    """The chance that a venue of `n` judged tags, each wrong with probability `rate`, shows more
    than `target` of them wrong: how often a sample that small fails a target it meets."""
    allowed = math.floor(target * n + 1e-9)
    return 1.0 - sum(math.comb(n, k) * rate**k * (1 - rate) ** (n - k) for k in range(allowed + 1))


@main.command()
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--judge", "judge_globs", multiple=True, required=True, help="One judge's verdict files (a glob, quoted); once per judge.")
@click.option("--target", default=0.10, show_default=True, type=click.FloatRange(0, 1), help="The share of tags judged wrong to reach.")
def frontier(captures: tuple[Path, ...], judge_globs: tuple[str, ...], target: float) -> None:
    """Judges' agreement, and the right tags a version must hide for its tags to reach `target`."""
    judges = judges_from(judge_globs)
    shared, agreed, kappa = agreement(judges)
    click.echo(f"judges agree on {agreed:.1%} of the {shared} tags and links all of them judged (Cohen's kappa {kappa:.2f})")
    judged: list[tuple[tuple, float, str]] = []
    per_corpus: dict[str, list[float]] = defaultdict(list)
    for path in captures:
        for paper in json.loads(path.read_text(encoding="utf-8"))["papers"]:
            for tag in paper["tags"]:
                said = [j[i] for j in judges if (i := item_id(paper_key(paper), "tag", tag)) in j]
                if said:
                    wrong = sum(v == "wrong" for v in said) / len(said)
                    judged.append((evidence_rank(paper, tag), wrong, paper["corpus"]))
                    per_corpus[paper["corpus"]].append(wrong)
    if not judged:
        raise click.ClickException("no tag of the captures has a verdict")
    total, wrong_total = len(judged), sum(w for _, w, _ in judged)
    click.echo(f"{total} judged tags, {wrong_total:g} wrong (mean of the judges): {wrong_total / total:.1%}\n")
    click.echo("| tags kept | judged wrong among them | right tags hidden | wrong tags hidden |\n|---|---|---|---|")
    ranked = sorted(judged, key=lambda row: row[0], reverse=True)
    for kept in sorted({round(total * tenths / 10) for tenths in range(10, 4, -1)}, reverse=True):
        wrong_kept = sum(w for _, w, _ in ranked[:kept])
        click.echo(
            f"| {kept} ({kept / total:.0%}) | {wrong_kept / kept:.1%} | {(total - kept) - (wrong_total - wrong_kept):g} | {wrong_total - wrong_kept:g} |"
        )
    reached = hidden_to_reach([w for _, w, _ in ranked], target)
    if reached:
        kept, hidden_right, hidden_wrong = reached
        click.echo(
            f"\nat most {target:.0%} judged wrong: keep the {kept} best evidenced tags ({kept / total:.0%}), hiding {hidden_right:g} right and {hidden_wrong:g} wrong"
        )
    click.echo(
        f"\n| corpus | judged | wrong | chance to fail {target:.0%} at a true rate of {target:.0%} / {target / 2:.0%} |\n|---|---|---|---|"
    )
    for corpus, verdicts in sorted(per_corpus.items()):
        n = len(verdicts)
        click.echo(f"| {corpus} | {n} | {sum(verdicts):g} | {exceeding(n, target, target):.0%} / {exceeding(n, target / 2, target):.0%} |")


@main.command()
@click.argument("captures", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--judge", "judge_globs", multiple=True, required=True, help="One judge's verdict files (a glob, quoted); once per judge.")
def wrong(captures: tuple[Path, ...], judge_globs: tuple[str, ...]) -> None:
    """The captures' tags judged wrong per corpus and pooled, with 90% Wilson intervals."""
    judges = judges_from(judge_globs)
    rows: dict[str, list[float]] = defaultdict(list)
    unjudged: dict[str, int] = defaultdict(int)
    for path in captures:
        for paper in json.loads(path.read_text(encoding="utf-8"))["papers"]:
            for tag in paper["tags"]:
                said = [j[i] for j in judges if (i := item_id(paper_key(paper), "tag", tag)) in j]
                if said:
                    rows[paper["corpus"]].append(sum(v == "wrong" for v in said) / len(said))
                else:
                    unjudged[paper["corpus"]] += 1
    click.echo("| corpus | tags judged | judged wrong | 90% interval | not judged |\n|---|---|---|---|---|")
    everything: list[float] = []
    for corpus, verdicts in rows.items():
        everything += verdicts
        low, high = wilson(sum(verdicts), len(verdicts))
        click.echo(
            f"| {corpus} | {len(verdicts)} | {sum(verdicts):g} ({sum(verdicts) / len(verdicts):.1%}) | [{low:.2f}, {high:.2f}] | {unjudged[corpus]} |"
        )
    low, high = wilson(sum(everything), len(everything))
    share = sum(everything) / len(everything) if everything else 0.0
    click.echo(f"| all | {len(everything)} | {sum(everything):g} ({share:.1%}) | [{low:.2f}, {high:.2f}] | {sum(unjudged.values())} |")


if __name__ == "__main__":
    main()
