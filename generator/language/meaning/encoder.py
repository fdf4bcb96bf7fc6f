"""Texts to unit vectors with an installed sentence model (generator.language.meaning.model):
WordPiece tokens by the model's own tokenizer (Hugging Face `tokenizers`), cut at the model's
length, the ONNX graph run by onnxruntime on the CPU, then the mean of the token vectors
(padding left out) scaled to length 1, as sentence-transformers pools all-MiniLM-L6-v2.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from generator.language.meaning.graph import MASKED
from generator.language.meaning.model import Model

# Texts per run of the graph. One: the int8 graph scales each run's activations by their own
# range, so in a batch a text's vector would depend on its batch-mates (decision 0016).
BATCH = 1


class Encoder:
    """A loaded model: its tokenizer and an onnxruntime session."""

    def __init__(self, model: Model):
        import onnxruntime
        from tokenizers import Tokenizer

        self.model = model
        self.tokenizer = Tokenizer.from_file(str(model.tokenizer))
        self.tokenizer.no_padding()  # padded here, per batch (the file pads every text to 128)
        self.tokenizer.enable_truncation(model.max_tokens)
        options = onnxruntime.SessionOptions()
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        self.session = onnxruntime.InferenceSession(str(model.graph), options, providers=["CPUExecutionProvider"])

    def embed(self, texts: list[str], progress: bool = False) -> np.ndarray:
        """One unit-length float32 row per text, in order; `progress`: with a progress bar."""
        from tqdm import tqdm

        vectors = np.zeros((len(texts), self.model.dimension), dtype=np.float32)
        if not texts:
            return vectors
        tokens = [encoding.ids for encoding in self.tokenizer.encode_batch(texts)]
        order = np.argsort([len(ids) for ids in tokens], kind="stable")
        with tqdm(total=len(texts), desc="embed", unit="abstract", disable=not progress, leave=False) as bar:
            for start in range(0, len(texts), BATCH):
                rows = order[start : start + BATCH]
                vectors[rows] = self._pooled([tokens[i] for i in rows])
                bar.update(len(rows))
        return vectors

    def _pooled(self, batch: list[list[int]]) -> np.ndarray:
        length = max(len(ids) for ids in batch)
        ids = np.zeros((len(batch), length), dtype=np.int64)
        present = np.zeros((len(batch), length), dtype=np.float32)
        for row, tokens in enumerate(batch):
            ids[row, : len(tokens)] = tokens
            present[row, : len(tokens)] = 1
        positions = np.broadcast_to(np.arange(length, dtype=np.int64), ids.shape).copy()
        mask = ((1 - present) * MASKED)[:, None, None, :].astype(np.float32)
        (hidden,) = self.session.run(["hidden"], {"input_ids": ids, "position_ids": positions, "mask": mask})
        pooled = (hidden * present[:, :, None]).sum(axis=1) / np.maximum(present.sum(axis=1, keepdims=True), 1)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.where(norms > 0, norms, 1)


@cache
def encoder(model: Model) -> Encoder:
    """The model loaded once per process."""
    return Encoder(model)
