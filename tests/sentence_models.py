"""Sentence models for the tests: a tiny BERT the tests make (random weights, a small WordPiece
vocabulary) in the folder layout Hugging Face uses, installed by the same code as the real one;
and the real all-MiniLM-L6-v2 where the machine has it installed.

Every test session points ABSTRACTS_SITE_CACHE at a temporary folder (tests/conftest.py), so
builds under test never see, use or fill the user's cache; REAL_FOLDER is where the user's
cache holds the real model, read before that."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from generator.language.meaning import model as meaning_model

REAL_FOLDER = meaning_model.default_folder()  # read before isolate() moves the cache


def isolate() -> Path:
    """Point this process and its children at a new, empty cache folder; its path."""
    folder = Path(tempfile.mkdtemp(prefix="abstracts-test-cache-"))
    os.environ["ABSTRACTS_SITE_CACHE"] = str(folder)
    return folder


def real_model() -> meaning_model.Model | None:
    """The real all-MiniLM-L6-v2 when this machine has it installed (`make model`), else None."""
    try:
        return meaning_model.find(REAL_FOLDER)
    except meaning_model.Unavailable:
        return None


WORDS = (
    "graph neural network networks learning model models robot robots policy policies language image images "
    "vision text training data we propose a an the of for to and in on with method methods results show "
    "reinforcement control grasping planning transformer attention segmentation detection 3d point cloud "
    "diffusion generation sampling benchmark evaluation ##s ##ing ##ed"
).split()
HIDDEN, HEADS, LAYERS, INNER, MAX_TOKENS = 32, 4, 2, 64, 48


def tiny_source(folder: Path, seed: int = 0) -> Path:
    """A tiny BERT encoder as a Hugging Face model folder: config.json, tokenizer.json,
    model.safetensors, sentence_bert_config.json."""
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, decoders, normalizers, pre_tokenizers, processors
    from tokenizers.models import WordPiece

    folder.mkdir(parents=True, exist_ok=True)
    vocabulary = {token: i for i, token in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS])}
    tokenizer = Tokenizer(WordPiece(vocabulary, unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", vocabulary["[CLS]"]), ("[SEP]", vocabulary["[SEP]"])]
    )
    tokenizer.decoder = decoders.WordPiece()
    tokenizer.enable_padding(length=128)  # as the real file pads: the encoder must undo it
    tokenizer.save(str(folder / "tokenizer.json"))
    config = {
        "model_type": "bert",
        "hidden_act": "gelu",
        "hidden_size": HIDDEN,
        "num_attention_heads": HEADS,
        "num_hidden_layers": LAYERS,
        "intermediate_size": INNER,
        "layer_norm_eps": 1e-12,
        "max_position_embeddings": 64,
        "type_vocab_size": 2,
        "vocab_size": len(vocabulary),
    }
    (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    (folder / "sentence_bert_config.json").write_text(json.dumps({"max_seq_length": MAX_TOKENS}), encoding="utf-8")
    save_file(tiny_weights(len(vocabulary), seed), str(folder / "model.safetensors"))
    return folder


def tiny_weights(vocabulary: int, seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)

    def normal(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.2).astype(np.float32)

    weights = {
        "embeddings.word_embeddings.weight": normal(vocabulary, HIDDEN),
        "embeddings.position_embeddings.weight": normal(64, HIDDEN),
        "embeddings.token_type_embeddings.weight": normal(2, HIDDEN),
        "embeddings.LayerNorm.weight": 1 + normal(HIDDEN),
        "embeddings.LayerNorm.bias": normal(HIDDEN),
    }
    for layer in range(LAYERS):
        prefix = f"encoder.layer.{layer}."
        for name in ("query", "key", "value"):
            weights[f"{prefix}attention.self.{name}.weight"] = normal(HIDDEN, HIDDEN)
            weights[f"{prefix}attention.self.{name}.bias"] = normal(HIDDEN)
        weights[f"{prefix}attention.output.dense.weight"] = normal(HIDDEN, HIDDEN)
        weights[f"{prefix}attention.output.dense.bias"] = normal(HIDDEN)
        weights[f"{prefix}attention.output.LayerNorm.weight"] = 1 + normal(HIDDEN)
        weights[f"{prefix}attention.output.LayerNorm.bias"] = normal(HIDDEN)
        weights[f"{prefix}intermediate.dense.weight"] = normal(INNER, HIDDEN)
        weights[f"{prefix}intermediate.dense.bias"] = normal(INNER)
        weights[f"{prefix}output.dense.weight"] = normal(HIDDEN, INNER)
        weights[f"{prefix}output.dense.bias"] = normal(HIDDEN)
        weights[f"{prefix}output.LayerNorm.weight"] = 1 + normal(HIDDEN)
        weights[f"{prefix}output.LayerNorm.bias"] = normal(HIDDEN)
    return weights


def reference_embedding(source: Path, ids: list[int]) -> np.ndarray:
    """The mean-pooled, unit-length output of the encoder in `source` for one token sequence,
    computed with numpy in float32 from the safetensors weights: what the ONNX graph must match."""
    from safetensors.numpy import load_file
    from scipy.special import erf

    weights = load_file(str(source / "model.safetensors"))
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    heads, size = config["num_attention_heads"], config["hidden_size"]
    head = size // heads

    def norm(x: np.ndarray, prefix: str) -> np.ndarray:
        mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + config["layer_norm_eps"]) * weights[f"{prefix}.weight"] + weights[f"{prefix}.bias"]

    def linear(x: np.ndarray, prefix: str) -> np.ndarray:
        return x @ weights[f"{prefix}.weight"].T + weights[f"{prefix}.bias"]

    n = len(ids)
    x = weights["embeddings.word_embeddings.weight"][ids] + weights["embeddings.position_embeddings.weight"][:n]
    x = norm(x + weights["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
    for layer in range(config["num_hidden_layers"]):
        prefix = f"encoder.layer.{layer}."
        q, k, v = (
            linear(x, f"{prefix}attention.self.{name}").reshape(n, heads, head).transpose(1, 0, 2) for name in ("query", "key", "value")
        )
        scores = q @ k.transpose(0, 2, 1) / np.sqrt(head)
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        attended = (scores / scores.sum(-1, keepdims=True)) @ v
        x = norm(
            x + linear(attended.transpose(1, 0, 2).reshape(n, size), f"{prefix}attention.output.dense"),
            f"{prefix}attention.output.LayerNorm",
        )
        inner = linear(x, f"{prefix}intermediate.dense")
        x = norm(x + linear(0.5 * inner * (1 + erf(inner / np.sqrt(2))), f"{prefix}output.dense"), f"{prefix}output.LayerNorm")
    pooled = x.mean(axis=0)
    return pooled / np.linalg.norm(pooled)


def install_tiny(source_folder: Path, target: Path | None = None) -> meaning_model.Model:
    """The tiny model made in `source_folder` and installed where builds look (the test
    session's cache, unless `target`)."""
    from generator.language.meaning.install import convert

    return convert(tiny_source(source_folder), target or meaning_model.default_folder(), "tiny-bert")
