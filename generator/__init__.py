"""Turn research-paper abstracts into a searchable, well-linked MkDocs Material site."""

import os

__version__ = "0.1.0"

# One BLAS thread per process unless the user chose otherwise. The generator runs its own
# processes on every core, and the helper threads OpenBLAS starts with numpy spun on them
# between calls, costing CPU and wall time (decision 0007). Read when numpy is first
# imported, which no module of this package does at import time before this line runs.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
