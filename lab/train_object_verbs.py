"""Learn which words abstracts put before a verb's object: generator/data/object_verbs.txt.

    .venv/bin/python -m lab.train_object_verbs --corpus ../shared/corpus            # writes the file
    .venv/bin/python -m lab.train_object_verbs --corpus ../shared/corpus --check    # prints, writes nothing

A key phrase that ends on a verb reads as a clause cut short: 'hallucinations impede' (of "These
hallucinations impede various applications"), 'evaluation plays' (of "plays a crucial role").
Which words are verbs there is told by what follows: a determiner or quantifier that begins an
object (lexicon `object_starts`: 'the', 'a', 'their', 'various' ...) rarely follows a noun. A
word is listed when, in the abstracts of the labelled corpora (every `*.jsonl` of --corpus),
it is used at least MIN_USES times and right before such a word in at least MIN_SHARE of its
uses ('plays', 'impede'; not 'features', 'networks': decision 0034 has the counts).
`link.keyphrases.verb_phrases` reads it. Deterministic: the same corpora give the same file.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from generator.language import lexicon

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "generator" / "data" / "object_verbs.txt"
MIN_USES = 5
MIN_SHARE = 0.15
_TOKEN = re.compile(r"[A-Za-z][\w-]*|[^\w\s]")


def object_verbs(abstracts: Iterable[str]) -> list[str]:
    """The words used MIN_USES+ times, right before an object's first word in MIN_SHARE+ of them."""
    starts = lexicon.words("object_starts")
    uses: Counter[str] = Counter()
    before_object: Counter[str] = Counter()
    for abstract in abstracts:
        tokens = [token.lower() for token in _TOKEN.findall(abstract)]
        uses.update(tokens)
        before_object.update(word for word, following in zip(tokens, tokens[1:]) if following in starts)
    return sorted(
        word
        for word, count in uses.items()
        if count >= MIN_USES and before_object[word] >= MIN_SHARE * count and word[0].isalpha() and word not in starts
    )


def corpus_abstracts(corpus_dir: Path) -> list[str]:
    """The abstracts of every labelled corpus (`*.jsonl`) in the folder, in file order."""
    abstracts = []
    for path in sorted(corpus_dir.glob("*.jsonl")):
        with path.open(encoding="utf-8") as lines:
            abstracts += [str(json.loads(line).get("abstract") or "") for line in lines if line.strip()]
    return abstracts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus", help="the folder of labelled corpora")
    parser.add_argument("--check", action="store_true", help="print the figures and write nothing")
    arguments = parser.parse_args()
    abstracts = corpus_abstracts(arguments.corpus)
    if not abstracts:
        raise SystemExit(f"no abstracts in {arguments.corpus}/*.jsonl")
    words = object_verbs(abstracts)
    print(f"{len(words)} words from {len(abstracts)} abstracts (uses >= {MIN_USES}, share before an object >= {MIN_SHARE})")
    if not arguments.check:
        header = (
            f"# words abstracts put right before an object's first word (lexicon object_starts) in {MIN_SHARE:.0%}+ of "
            f"their {MIN_USES}+ uses; learned by `make train` (lab/train_object_verbs.py)"
        )
        DATA.write_text("\n".join([header, *words]) + "\n", encoding="utf-8")
        print(f"written to {DATA.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
