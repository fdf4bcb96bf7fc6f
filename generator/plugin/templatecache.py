"""Compiled theme templates kept for the life of `mkdocs serve`.

MkDocs makes a new Jinja environment for every build, so each rebuild after an edit compiled
Material's templates again, a good part of an edit (decision 0002). Jinja checks each kept template's
source checksum before using it: an edited template is compiled again.
"""

from __future__ import annotations

import jinja2


class MemoryBytecodeCache(jinja2.BytecodeCache):
    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # ignored by Jinja when the source's checksum differs

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()
