"""Fit the built-in meaning table (generator/data/meaning/) from all-MiniLM-L6-v2, on unlabelled abstracts.

    .venv/bin/python -m lab.train_meaning                       # writes generator/data/meaning/
    .venv/bin/python -m lab.train_meaning --check               # fits and reports, writes nothing

Needs the sentence model (`make model`). Decision 0027. The table gives a text the mean of its
word pieces' rows; it is fitted so that this mean reproduces the model's vector of the text:
1. Texts: ../shared/corpus/unlabelled/abstracts.jsonl.gz, less the venues held out for blind
   judgements (HELD_OUT: fresh venues no model has seen), URLs removed as a build removes them.
2. Targets: the model's unit vector of each text (256 word pieces), through the user's vector
   cache (generator.runtime.meanings): only the first run embeds them (decision 0027 has the
   time), later runs read them back.
3. Word pieces by the model's own tokenizer (no [CLS]/[SEP], read as a build reads them:
   table.read_span, at most table.MAX_TOKENS); a word
   piece in fewer than MIN_DOCS texts gets no row (it counts in a text's length, adding nothing).
4. One ridge solve (Tokenlearn's idea, without its PyTorch training): rows E minimise
   sum over texts of |mean of the text's rows - target|^2 + RIDGE * |E|^2.
5. PCA to DIMENSIONS, int8 with one scale for the whole table (a text's vector is scaled to
   length 1, so the scale never matters), saved as a model2vec folder (model.safetensors with a
   token-to-row mapping, tokenizer.json, config.json) that `model2vec.StaticModel` runs: 4 MB.
Deterministic: the same corpus and model give the same files (sorted inputs, a direct solver).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

import numpy as np
from scipy import linalg, sparse

from generator.language.meaning import table as meaning_table
from generator.language.meaning.encoder import encoder
from generator.language.meaning.model import find
from generator.runtime.meanings import VectorStore, meaning_vectors, store_path
from generator.sources.markup import URL

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "unlabelled" / "abstracts.jsonl.gz"
OUT = ROOT / "generator" / "data" / "meaning"
# Venue families never fitted on: kept fresh for blind judgements of what meaning decides (issue 52).
HELD_OUT = ("aaai", "rss", "uai", "automl", "alt")
MIN_DOCS = 3
RIDGE = 1e-3
DIMENSIONS = 256
NAME = "abstracts-site-meaning-table"
# The teacher reads a text's first 256 word pieces (the model's own length), though builds embed
# only 128 (model.WINDOW, decision 0028): the table keeps its targets and its identity.
TEACHER_WINDOW = 256


def family(venue: str) -> str:
    return venue.rstrip("0123456789")


def training_texts(path: Path = CORPUS, held_out: tuple[str, ...] = HELD_OUT) -> list[str]:
    """The unlabelled abstracts fitted on, in file order, URLs removed."""
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        rows = [json.loads(line) for line in stream]
    return [URL.sub(" ", row["abstract"]).strip() for row in rows if family(row["venue"]) not in held_out]


def targets(texts: list[str], progress: bool = True) -> np.ndarray:
    """The sentence model's unit vector of each text, through the user's vector cache."""
    model = find(window=TEACHER_WINDOW)
    embed = encoder(model).embed
    vectors, embedded = meaning_vectors(texts, model, lambda missing: embed(missing, progress=progress), VectorStore(store_path(), model))
    print(f"targets: {len(texts)} texts, {embedded} embedded now by {model.name}", flush=True)
    return vectors


def word_pieces(tokenizer, texts: list[str]) -> list[np.ndarray]:
    """Each text's word pieces as the table reads them at build time (table.read_span, MAX_TOKENS)."""
    span = meaning_table.read_span(tokenizer)
    encodings = tokenizer.encode_batch([text[:span] for text in texts], add_special_tokens=False)
    return [np.asarray(e.ids[: meaning_table.MAX_TOKENS], dtype=np.int64) for e in encodings]


def mean_matrix(pieces: list[np.ndarray], vocabulary: int) -> sparse.csr_matrix:
    """Texts x word pieces: a piece's share of the text's length (a row is a text's mean)."""
    lengths = np.array([len(p) for p in pieces])
    rows = np.repeat(np.arange(len(pieces)), lengths)
    values = np.repeat(1.0 / np.maximum(lengths, 1), lengths)
    matrix = sparse.csr_matrix((values, (rows, np.concatenate(pieces))), shape=(len(pieces), vocabulary))
    matrix.sum_duplicates()
    return matrix


def fit_rows(
    means: sparse.csr_matrix, targets: np.ndarray, min_docs: int = MIN_DOCS, ridge: float = RIDGE
) -> tuple[np.ndarray, np.ndarray]:
    """(the word pieces given a row, their rows): the ridge solution of means @ rows = targets."""
    documents = np.asarray((means > 0).sum(axis=0)).ravel()
    kept = np.flatnonzero(documents >= min_docs)
    columns = means[:, kept].tocsc()
    # Dense: past about 16,000 rows (a lower MIN_DOCS, word-piece pairs) the OpenBLAS in numpy's
    # and scipy's wheels crashed here on two threads (decision 0027).
    gram = (columns.T @ columns).toarray()
    gram[np.diag_indices_from(gram)] += ridge
    right = np.asarray(columns.T @ targets.astype(np.float64))
    rows = linalg.solve(gram, right, assume_a="pos", overwrite_a=True, overwrite_b=True)
    return kept, rows


def principal(rows: np.ndarray, weights: np.ndarray, dimensions: int) -> np.ndarray:
    """The rows projected on their `dimensions` main directions, each row weighted by how often
    its piece occurs (the directions that matter in texts); signs fixed for determinism."""
    centre = (rows * weights[:, None]).sum(axis=0) / weights.sum()
    scaled = (rows - centre) * np.sqrt(weights)[:, None]
    _, _, axes = np.linalg.svd(scaled, full_matrices=False)
    axes = axes[:dimensions]
    axes *= np.sign(axes[np.arange(len(axes)), np.abs(axes).argmax(axis=1)])[:, None]
    return rows @ axes.T


def save(folder: Path, tokenizer, kept: np.ndarray, rows: np.ndarray, about: dict) -> str:
    """The table as a model2vec folder; its identity (the SHA-256 of the table file)."""
    from safetensors.numpy import save_file

    folder.mkdir(parents=True, exist_ok=True)
    vocabulary = tokenizer.get_vocab_size()
    embeddings = np.zeros((len(kept) + 1, rows.shape[1]), dtype=np.int8)  # the last row: pieces given none
    embeddings[: len(kept)] = np.round(rows * (127 / np.abs(rows).max()))
    mapping = np.full(vocabulary, len(kept), dtype=np.int32)
    mapping[kept] = np.arange(len(kept), dtype=np.int32)
    save_file({"embeddings": embeddings, "mapping": mapping}, str(folder / meaning_table.TABLE))
    (folder / meaning_table.TABLE).chmod(0o644)  # safetensors writes it private; it ships in the package
    tokenizer.no_truncation()
    tokenizer.no_padding()
    tokenizer.save(str(folder / meaning_table.TOKENIZER), pretty=False)
    identity = hashlib.sha256((folder / meaning_table.TABLE).read_bytes()).hexdigest()[:16]
    config = {
        "model_type": "model2vec",
        "architectures": ["StaticModel"],
        "tokenizer_name": "sentence-transformers/all-MiniLM-L6-v2",
        "apply_pca": rows.shape[1],
        "apply_zipf": False,
        "hidden_dim": rows.shape[1],
        "seq_length": meaning_table.MAX_TOKENS,
        "normalize": True,
        "embedding_dtype": "int8",
        "vocabulary_quantization": len(kept) + 1,
        "abstracts_site": {"name": NAME, "identity": f"{NAME}:{identity}", **about},
    }
    (folder / meaning_table.CONFIG).write_text(json.dumps(config, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return identity


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="fit and report; write nothing")
    parser.add_argument("--min-docs", type=int, default=MIN_DOCS)
    parser.add_argument("--ridge", type=float, default=RIDGE)
    parser.add_argument("--dimensions", type=int, default=DIMENSIONS)
    args = parser.parse_args()
    from tokenizers import Tokenizer

    began = time.perf_counter()
    texts = training_texts(args.corpus)
    wanted = targets(texts)
    tokenizer = Tokenizer.from_file(str(find().tokenizer))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    pieces = word_pieces(tokenizer, texts)
    means = mean_matrix(pieces, tokenizer.get_vocab_size())
    kept, rows = fit_rows(means, wanted, args.min_docs, args.ridge)
    counts = np.asarray((means > 0).sum(axis=0)).ravel()[kept].astype(np.float64)
    reduced = principal(rows, counts, args.dimensions)
    fitted = means[:, kept] @ rows
    fitted /= np.maximum(np.linalg.norm(fitted, axis=1, keepdims=True), 1e-12)
    agreement = float(np.mean(np.einsum("ij,ij->i", fitted, wanted)))
    print(
        f"{len(texts)} texts, {len(kept)} word pieces with a row, {args.dimensions} dimensions; "
        f"mean cosine with the model's vectors on the texts fitted on {agreement:.3f}; {time.perf_counter() - began:.0f} s",
        flush=True,
    )
    if args.check:
        return 0
    about = {
        "fitted_on": f"{len(texts)} abstracts of ../shared/corpus/unlabelled (venues {', '.join(HELD_OUT)} held out)",
        "teacher": find(window=TEACHER_WINDOW).identity,
        "min_docs": args.min_docs,
        "ridge": args.ridge,
    }
    identity = save(args.out, tokenizer, kept, reduced, about)
    print(f"written {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out} ({identity})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
