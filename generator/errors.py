"""The one exception the pipeline raises for bad input, and the report of what it handled."""

from __future__ import annotations

from dataclasses import dataclass, field


class InputError(Exception):
    """Input the generator cannot use. The message always names the file (and line)."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message

    def __reduce__(self):  # raised again in the process that forked the run (generator.runtime.parallel.Later)
        return (InputError, (self.where, self.message))


@dataclass
class Report:
    """What a run handled without failing: shown to the user in the run's summary."""

    warnings: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # how the run went where the user may want to know (not problems)
    # Input files that could not be read this run ("file:line: what is wrong"), where the run went
    # on: under `mkdocs serve` their last readable version is used (never readable: left out);
    # an input file replaced by a folder, in any run, is left out.
    unreadable: list[str] = field(default_factory=list)

    def warn(self, where: str, message: str) -> None:
        self.warnings.append(f"{where}: {message}")
