"""The built-in meaning table (generator/data/meaning/, decision 0027): what a build uses for
related papers by meaning by default. It ships with the package, so these tests run everywhere."""

from __future__ import annotations

import json

import numpy as np
import pytest
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from generator.language.meaning.model import Unavailable
from generator.language.meaning.table import CONFIG, MAX_TOKENS, TABLE, TOKENIZER, TableEncoder, find_table, read_span, table_folder

TEXTS = [
    "We propose a graph neural network that predicts the properties of molecules.",
    "Message passing on molecular graphs improves property prediction for drug discovery.",
    "A robot learns to grasp unseen objects from tactile sensing and a few demonstrations.",
    "",
]


@pytest.fixture(scope="module")
def encoder():
    return TableEncoder(find_table())


def test_the_built_in_table_ships_with_the_package_and_names_itself():
    table = find_table()
    assert table.folder == table_folder() and table.dimension == 256
    assert table.identity.startswith(f"{table.name}:") and len(table.identity) > len(table.name) + 8
    assert (table.folder / TABLE).stat().st_size < 6_000_000  # small enough to ship in the wheel


def test_a_text_becomes_a_unit_vector_and_related_texts_are_closer(encoder):
    vectors = encoder.embed(TEXTS)
    assert vectors.shape == (4, 256) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors[:3], axis=1), 1, atol=1e-5)
    assert not vectors[3].any()  # no word piece: no direction, and no error
    molecules, drugs, robot = vectors[:3]
    assert float(molecules @ drugs) > float(molecules @ robot) + 0.2
    assert encoder.embed([]).shape == (0, 256)


def test_a_vector_is_the_mean_of_its_word_pieces_rows_and_the_same_alone_or_in_a_batch(encoder):
    folder = find_table().folder
    tensors = load_file(str(folder / TABLE))
    tokenizer = Tokenizer.from_file(str(folder / TOKENIZER))
    long = " ".join(["reinforcement learning with a world model"] * 100)
    for text, vector in zip([*TEXTS[:3], long], encoder.embed([*TEXTS[:3], long])):
        ids = tokenizer.encode(text[: read_span(tokenizer)], add_special_tokens=False).ids[:MAX_TOKENS]
        mean = tensors["embeddings"][tensors["mapping"][ids]].astype(np.float64).mean(axis=0)
        assert np.allclose(vector, mean / np.linalg.norm(mean), atol=1e-5)
        assert np.allclose(encoder.embed([text])[0], vector, atol=1e-6)


def test_a_missing_or_broken_table_is_unavailable_with_how_to_mend_it(tmp_path):
    with pytest.raises(Unavailable, match="missing or unreadable: install abstracts-site again"):
        find_table(tmp_path)
    (tmp_path / CONFIG).write_text(json.dumps({"hidden_dim": 4, "abstracts_site": {"name": "t", "identity": "t:1"}}), encoding="utf-8")
    with pytest.raises(Unavailable, match="incomplete"):
        find_table(tmp_path)
