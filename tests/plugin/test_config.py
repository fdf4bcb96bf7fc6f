"""The plugin's options, the command line's and the pipeline's Settings are one declaration
(generator.options): a default or a bound cannot differ between them (issue 54)."""

from __future__ import annotations

import click
import pytest

from generator import options
from generator.cli import main
from generator.pipeline import Settings
from generator.plugin.config import AbstractsConfig


def _plugin_config(**given):
    config = AbstractsConfig()
    config.load_dict(given)
    return config.validate()


def test_the_plugin_the_command_line_and_the_pipeline_share_each_default_and_bound():
    plugin = dict(AbstractsConfig._schema)
    assert plugin["related"].default == Settings().related == options.RELATED.default
    assert (plugin["related"].low, plugin["related"].high) == (options.RELATED.low, options.RELATED.high)
    assert plugin["related_by"].default == Settings().related_by == options.RELATED_BY.default
    assert tuple(plugin["related_by"].choices) == options.RELATED_BY.choices
    for name in ("build", "generate"):
        params = {p.name: p for p in main.commands[name].params}
        assert params["related"].default == options.RELATED.default
        assert (params["related"].type.min, params["related"].type.max) == (options.RELATED.low, options.RELATED.high)
        assert params["related_by"].default == options.RELATED_BY.default
        assert (
            isinstance(params["related_by"].type, click.Choice) and tuple(params["related_by"].type.choices) == options.RELATED_BY.choices
        )


@pytest.mark.parametrize(
    ("given", "failed"), [({"related": 51}, True), ({"related": True}, True), ({"related": 0}, False), ({"related_by": "words"}, True)]
)
def test_the_plugin_checks_the_declared_bounds_and_choices(given, failed):
    errors, _ = _plugin_config(**given)
    assert bool(errors) is failed, errors
