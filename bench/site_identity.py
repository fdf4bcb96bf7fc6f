"""Are two checkouts' generated sites the same, byte for byte? For refactors that must not
change output: the seeds site and the 4,242 papers of bench.py's five corpora, each cold and
after a series of edits under a serve session (in-process, as `mkdocs serve` runs them).

    .venv/bin/python -m bench.site_identity --before ../base --after . [--work /tmp/identity]

Each checkout runs in a process of its own with itself first on PYTHONPATH; the outputs are
kept in --work and compared file by file (the `.abstracts-site/` cache folder aside).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
CORPUS_FILES = ("iclr2024.jsonl", "ijcai2024.jsonl", "colm2025.jsonl", "corl2025.jsonl", "iclr2018.jsonl")
EDITS = 6


def _generate_api():
    """generate, Settings and Session from whichever layout the checkout on PYTHONPATH has."""
    import generator
    from generator.pipeline import Settings, generate

    # By the folder, not by trying the import: an editable install's finder maps any
    # generator.* name to its own checkout, whichever `generator` came first on the path.
    if (Path(generator.__file__).parent / "runtime").is_dir():
        from generator.runtime.session import Session
    else:
        from generator.session import Session
    return generate, Settings, Session


def _edit(path: Path, rng: random.Random, step: int) -> None:
    """Reword one abstract of a JSONL file (a sentence added at its start or end, or the record
    removed), or append a sentence to one of a text file."""
    if path.suffix == ".jsonl":
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        row = rng.choice(rows)
        if step % 3 == 2:
            rows.remove(row)
        else:
            donor = rng.choice(rows)["abstract"].split(". ")[0].rstrip(".")
            # At the start too: the sentence model reads an abstract's first 128 word pieces only,
            # and an edit there changes the paper's meaning vector.
            row["abstract"] = f"{donor}. {row['abstract']}" if step % 2 else f"{row['abstract']} {donor}."
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    else:
        paragraphs = path.read_text(encoding="utf-8").split("\n\n")
        i = rng.randrange(1, len(paragraphs))
        paragraphs[i] = paragraphs[i].rstrip() + f" We also study a variant {step}.\n"
        path.write_text("\n\n".join(paragraphs), encoding="utf-8")


def run_one(name: str, inputs: list[Path], out: Path) -> None:
    """Cold output into out/cold, then EDITS edits under one session, each run's output kept."""
    generate, Settings, Session = _generate_api()
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    work = out / "inputs"
    work.mkdir(parents=True)
    copies = []
    for source in inputs:
        copies.append(work / source.name)
        shutil.copyfile(source, copies[-1])
    settings = Settings(source_root=work)  # input paths shown relative: the same in every work folder
    generate(copies, out / "cold", settings)
    session = Session()
    docs = out / "served"
    generate(copies, docs, settings, session=session)
    rng = random.Random(32)
    for step in range(EDITS):
        _edit(copies[rng.randrange(len(copies))], rng, step)
        generate(copies, docs, settings, session=session)
        shutil.copytree(docs, out / f"edit-{step}", ignore=shutil.ignore_patterns(".abstracts-site"))
    generate(copies, out / "cold-after-edits", settings)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".abstracts-site" not in p.parts and "inputs" not in p.relative_to(folder).parts[:1]
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="the older checkout")
    parser.add_argument("--after", type=Path, default=REPO, help="the newer checkout (default: this one)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/site-identity"))
    parser.add_argument("--reuse-before", action="store_true", help="keep the --before outputs already in --work")
    parser.add_argument("--only", choices=("seeds", "corpora"), help="one of the two sites")
    parser.add_argument("--child", nargs=2, metavar=("NAME", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    sites = {"seeds": sorted((REPO / "seeds").glob("*.txt")), "corpora": [CORPUS / name for name in CORPUS_FILES]}
    if args.child:
        run_one(args.child[0], sites[args.child[0]], Path(args.child[1]))
        return 0
    for label in ("after",) if args.reuse_before else ("before", "after"):
        shutil.rmtree(args.work / label, ignore_errors=True)
    names = [args.only] if args.only else list(sites)
    failed = False
    for name in names:
        outs = {}
        for label, checkout in (("before", args.before), ("after", args.after)):
            out = args.work / label / name
            if label == "before" and args.reuse_before and out.is_dir():
                outs[label] = files_of(out)
                continue
            env = {**os.environ, "PYTHONPATH": str(checkout.resolve()), "PYTHONDONTWRITEBYTECODE": "1"}
            subprocess.run([sys.executable, __file__, "--before", ".", "--child", name, str(out)], env=env, check=True, cwd=checkout)
            outs[label] = files_of(out)
        before, after = outs["before"], outs["after"]
        differing = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        runs = len({k.split("/")[0] for k in before})
        print(f"{name}: {len(before)} files in {runs} runs (cold, served, {EDITS} edits, cold after edits); {len(differing)} differ")
        for path in differing[:20]:
            print(f"  differs: {path}")
        failed |= bool(differing)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
