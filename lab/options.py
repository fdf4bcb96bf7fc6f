"""Command-line options more than one lab tool takes."""

from __future__ import annotations

import click


def related_by(help: str, default: str = "lexical"):
    """`--related-by lexical|table|semantic`: how the sites a tool derives find related papers;
    `help` says what it changes for that tool."""
    return click.option(
        "--related-by", "related_by", type=click.Choice(["lexical", "table", "semantic"]), default=default, show_default=True, help=help
    )
