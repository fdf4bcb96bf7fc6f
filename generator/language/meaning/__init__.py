"""What an abstract means, as a vector: a small sentence-embedding model run on the CPU.

Related papers mix these vectors' cosines into their word-based scores (generator.link.related,
decision 0016). The model is all-MiniLM-L6-v2 (Apache-2.0): `install` fetches its pinned
weights once, when the user asks, and converts them to an int8 ONNX graph in the user's cache
(`graph`); `encoder` runs that graph with onnxruntime. Without the model (or without the
`semantic` extra's packages) `model.find()` says so and related papers are found by words only.
"""
