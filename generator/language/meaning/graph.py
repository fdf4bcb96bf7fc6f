"""A BERT encoder's weights (safetensors, as Hugging Face stores them) as an ONNX graph, and
that graph with its matrix weights quantised to int8.

The graph takes token ids, position ids and an additive attention mask (0 where a token
is, a large negative number where padding is) and returns the last hidden states; mean
pooling happens outside (generator.language.meaning.encoder), where the mask is known.
The matrix products are quantised per output channel: much faster than float32 at nearly the
same vectors (figures in decision 0016).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MASKED = -1e9  # added to the attention scores of padding


@dataclass(frozen=True)
class Shape:
    hidden: int
    heads: int
    layers: int
    epsilon: float


def shape_of(config: Mapping) -> Shape:
    """The encoder's sizes from its config.json."""
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        raise ValueError(f"not a BERT encoder with GELU: model_type={config.get('model_type')!r}")
    return Shape(
        int(config["hidden_size"]), int(config["num_attention_heads"]), int(config["num_hidden_layers"]), float(config["layer_norm_eps"])
    )


def build(weights: Mapping[str, np.ndarray], shape: Shape, path: Path) -> None:
    """Write the float32 ONNX graph of the encoder with `weights` to `path`."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    initializers: list = []
    nodes: list = []

    def constant(name: str, value) -> str:
        initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(kind: str, inputs: list[str], **attributes) -> str:
        output = f"n{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [output], **attributes))
        return output

    def weight(name: str) -> np.ndarray:
        return np.asarray(weights[name], dtype=np.float32)

    def layer_norm(x: str, prefix: str) -> str:
        gamma, beta = constant(f"{prefix}.weight", weight(f"{prefix}.weight")), constant(f"{prefix}.bias", weight(f"{prefix}.bias"))
        return op("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=shape.epsilon)

    def dense(x: str, matrix: np.ndarray, bias: np.ndarray, name: str) -> str:
        # x @ W.T + b: torch's Linear stores W as (out, in).
        return op("Add", [op("MatMul", [x, constant(f"{name}.weight", matrix.T.copy())]), constant(f"{name}.bias", bias)])

    size, heads = shape.hidden, shape.heads
    head = size // heads
    x = op(
        "Add",
        [
            op("Gather", [constant("words", weight("embeddings.word_embeddings.weight")), "input_ids"]),
            op("Gather", [constant("positions", weight("embeddings.position_embeddings.weight")), "position_ids"]),
        ],
    )
    x = op("Add", [x, constant("token_type", weight("embeddings.token_type_embeddings.weight")[0])])
    x = layer_norm(x, "embeddings.LayerNorm")
    split_heads = constant("split_heads", np.array([0, 0, 3, heads, head], dtype=np.int64))
    join_heads = constant("join_heads", np.array([0, 0, size], dtype=np.int64))
    scale = constant("scale", np.array(1 / np.sqrt(head), dtype=np.float32))
    half, one = constant("half", np.array(0.5, dtype=np.float32)), constant("one", np.array(1.0, dtype=np.float32))
    root_half = constant("root_half", np.array(1 / np.sqrt(2), dtype=np.float32))
    picks = [constant(f"pick{k}", np.array(k, dtype=np.int64)) for k in range(3)]
    for number in range(shape.layers):
        prefix = f"encoder.layer.{number}."
        projections = ("query", "key", "value")
        matrix = np.concatenate([weight(f"{prefix}attention.self.{p}.weight") for p in projections])
        bias = np.concatenate([weight(f"{prefix}attention.self.{p}.bias") for p in projections])
        # (batch, length, 3 * size) -> (3, batch, heads, length, head)
        qkv = op("Transpose", [op("Reshape", [dense(x, matrix, bias, f"{prefix}qkv"), split_heads])], perm=[2, 0, 3, 1, 4])
        query, key, value = (op("Gather", [qkv, pick], axis=0) for pick in picks)
        scores = op("Add", [op("Mul", [op("MatMul", [query, op("Transpose", [key], perm=[0, 1, 3, 2])]), scale]), "mask"])
        attended = op("MatMul", [op("Softmax", [scores], axis=-1), value])
        context = op("Reshape", [op("Transpose", [attended], perm=[0, 2, 1, 3]), join_heads])
        out = dense(
            context, weight(f"{prefix}attention.output.dense.weight"), weight(f"{prefix}attention.output.dense.bias"), f"{prefix}out"
        )
        x = layer_norm(op("Add", [x, out]), f"{prefix}attention.output.LayerNorm")
        inner = dense(x, weight(f"{prefix}intermediate.dense.weight"), weight(f"{prefix}intermediate.dense.bias"), f"{prefix}inner")
        gelu = op("Mul", [op("Mul", [inner, half]), op("Add", [one, op("Erf", [op("Mul", [inner, root_half])])])])
        out = dense(gelu, weight(f"{prefix}output.dense.weight"), weight(f"{prefix}output.dense.bias"), f"{prefix}ffn")
        x = layer_norm(op("Add", [x, out]), f"{prefix}output.LayerNorm")
    nodes.append(helper.make_node("Identity", [x], ["hidden"]))
    graph = helper.make_graph(
        nodes,
        "sentence-encoder",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["batch", "length"]),
            helper.make_tensor_value_info("mask", TensorProto.FLOAT, ["batch", 1, 1, "length"]),
        ],
        [helper.make_tensor_value_info("hidden", TensorProto.FLOAT, ["batch", "length", size])],
        initializers,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="abstracts-site")
    model.ir_version = 8  # what onnxruntime 1.17+ reads
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def quantise(source: Path, target: Path) -> None:
    """`source`'s matrix products with int8 weights, one scale per output channel."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # its advice to pre-process the graph is for convolutional models
    try:
        quantize_dynamic(str(source), str(target), op_types_to_quantize=["MatMul"], per_channel=True, weight_type=QuantType.QInt8)
    finally:
        root.setLevel(level)
