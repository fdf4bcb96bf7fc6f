"""Which pages' tags a change moves, over whole corpora (decision 0019's first figures).

    python -m lab.tag_changes dump before.json              # in the checkout before the change
    python -m lab.tag_changes dump after.json               # in the checkout after it
    python -m lab.tag_changes diff before.json after.json [--tag fairness]

`dump` derives every corpus as `lab.evaluate` does (titles and keywords hidden,
the checkout's shipped models, related papers by words) and writes each paper's real title,
author keywords, tags and key phrases. `diff` counts the papers whose tags change and, per tag,
the pages that lose and gain it; with --tag it lists those pages with their real titles and
author keywords, to read whether the tag was right there.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from lab.evaluate import derive, load

ROOT = Path(__file__).resolve().parent.parent


@click.group()
def main() -> None:
    """Tags before and after a change, over whole corpora."""


@main.command()
@click.argument("out_path", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--corpus", "corpus_dir", default=ROOT.parent / "shared" / "corpus", type=click.Path(path_type=Path, file_okay=False))
@click.argument("names", nargs=-1)
def dump(out_path: Path, corpus_dir: Path, names: tuple[str, ...]) -> None:
    """Every paper's tags and key phrases as this checkout derives them (NAMES: all corpora)."""
    paths = [corpus_dir / f"{name}.jsonl" for name in names] or sorted(corpus_dir.glob("*.jsonl"))
    missing = [str(path) for path in paths if not path.is_file()]
    if not paths or missing:
        raise click.UsageError(f"no corpus at {', '.join(missing) or corpus_dir} (--corpus names the folder)")
    out: dict[str, list[dict]] = {}
    for path in paths:
        records = load(path)
        papers, _ = derive(records)
        out[path.stem] = [
            {"title": r.title, "keywords": list(r.keywords), "tags": list(p.tags), "keyphrases": list(p.keyphrases)}
            for p, r in zip(papers, records, strict=True)
        ]
        click.echo(f"{path.stem}: {len(papers)} papers", err=True)
    out_path.write_text(json.dumps(out, ensure_ascii=False) + "\n", encoding="utf-8")


@main.command()
@click.argument("before_path", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.argument("after_path", type=click.Path(exists=True, path_type=Path, dir_okay=False))
@click.option("--tag", help="List the pages that lose or gain this tag.")
@click.option("--top", default=30, show_default=True, help="Tags shown, most moved first.")
def diff(before_path: Path, after_path: Path, tag: str | None, top: int) -> None:
    """Papers whose tags change; per tag, pages that lose and gain it."""
    before = json.loads(before_path.read_text(encoding="utf-8"))
    after = json.loads(after_path.read_text(encoding="utf-8"))
    lost: Counter[str] = Counter()
    gained: Counter[str] = Counter()
    changed = total = 0
    listed: list[str] = []
    for corpus in sorted(set(before) & set(after)):
        for old, new in zip(before[corpus], after[corpus], strict=True):
            total += 1
            removed, added = set(old["tags"]) - set(new["tags"]), set(new["tags"]) - set(old["tags"])
            changed += bool(removed or added)
            lost.update(removed)
            gained.update(added)
            if tag and (tag in removed or tag in added):
                sign = "-" if tag in removed else "+"
                listed.append(f"{sign} {corpus} | {new['title']} | {', '.join(new['keywords'])}")
    click.echo(f"{changed} of {total} papers' tags change")
    for name in sorted(lost | gained, key=lambda t: (-(lost[t] + gained[t]), t))[:top]:
        click.echo(f"  {name}: -{lost[name]} +{gained[name]}")
    for line in sorted(listed):
        click.echo(line)


if __name__ == "__main__":
    main()
