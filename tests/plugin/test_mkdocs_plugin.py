"""The `abstracts` MkDocs plugin as a site's author meets it: a mkdocs.yml with the theme and
the plugin is a whole site, and bad settings are reported the MkDocs way."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import mkdocs_build

ABSTRACTS = "Example Papers\n\nWe propose AlphaNet, a network for graph classification with message passing. It beats GNN baselines on $k$-hop tasks.\n\nWe introduce BetaBench, a benchmark for evaluating graph neural networks on molecules.\n"


def site_folder(folder: Path, plugin_options: str, theme: str = "material") -> Path:
    (folder / "seeds").mkdir(parents=True)
    (folder / "docs").mkdir()  # MkDocs requires the folder; the plugin fills it
    (folder / "seeds" / "papers.txt").write_text(ABSTRACTS, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        f"site_name: Mine\ntheme:\n  name: {theme}\nplugins:\n  - abstracts:{plugin_options}\n", encoding="utf-8"
    )
    return folder


def test_the_theme_and_the_plugin_are_a_whole_site(tmp_path):
    folder = site_folder(tmp_path, "\n      inputs: [seeds]")
    result = mkdocs_build(folder)
    assert result.returncode == 0, result.stderr
    site = folder / "site"
    page = next((site / "papers").glob("alphanet*/index.html")).read_text(encoding="utf-8")
    assert "AlphaNet" in page and 'class="paper-abstract' in page  # the package's paper template
    for asset in ("assets/vendor/katex/katex.min.js", "assets/javascripts/search.js", "assets/stylesheets/site.css"):
        assert asset in page and (site / asset).is_file()
    assert (site / "assets" / "vendor" / "katex" / "fonts").is_dir() and (site / "pagefind" / "pagefind.js").is_file()
    assert 'class="arithmatex"' in page  # math is written for KaTeX without the site naming the extension
    # The nav the plugin makes: the sections, never the papers, and no "not in the nav" notice.
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "Glossary" in home and "papers/alphanet" not in home.split('class="md-content"')[0]
    assert 'not included in the "nav"' not in result.stderr


def test_a_site_override_wins_over_the_package_template(tmp_path):
    folder = site_folder(tmp_path, "\n      inputs: [seeds]")
    config = folder / "mkdocs.yml"
    config.write_text(config.read_text().replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"))
    (folder / "overrides").mkdir()
    (folder / "overrides" / "paper.html").write_text('{% extends "main.html" %}{% block content %}<p>my-own-paper-page</p>{% endblock %}')
    result = mkdocs_build(folder)
    assert result.returncode == 0, result.stderr
    assert "my-own-paper-page" in next((folder / "site" / "papers").glob("alphanet*/index.html")).read_text()


@pytest.mark.parametrize(
    "options, theme, message",
    [
        ("\n      related: 99", "material", "Plugin 'abstracts' option 'related': Expected a whole number from 0 to 50, got 99."),
        ("\n      related: many", "material", "Plugin 'abstracts' option 'related': Expected a whole number from 0 to 50, got 'many'."),
        ("\n      inputs: [missing.txt]", "material", "Plugin 'abstracts' option 'inputs': The path"),
        ("\n      inputs: []", "material", "abstracts: no inputs"),
        (
            "\n      inputs: [seeds]\n      colour: blue",
            "material",
            "Plugin 'abstracts' option 'colour': Unrecognised configuration name: colour",
        ),
        ("\n      inputs: [seeds]", "mkdocs", "abstracts: the theme must be 'material'"),
    ],
)
def test_bad_settings_stop_the_build_with_the_option_named(tmp_path, options, theme, message):
    result = mkdocs_build(site_folder(tmp_path, options, theme))
    assert result.returncode != 0
    assert message in result.stderr and "Traceback" not in result.stderr


def test_under_serve_the_inputs_and_hand_written_docs_are_looked_at_five_times_as_often(tmp_path):
    """MkDocs polls watched paths every 0.5 s: a saved edit waited 0.25 s on average before
    its rebuild began. The paths the plugin watches are polled every 0.1 s."""
    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer

    folder = site_folder(tmp_path, "\n      inputs: [seeds]")
    (folder / "docs" / "about.md").write_text("# About\n", encoding="utf-8")
    config = load_config(str(folder / "mkdocs.yml"))
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
    server.watch(config.docs_dir)  # as `mkdocs serve` does before the plugins' on_serve
    server.watch(str(folder / "mkdocs.yml"))
    config.plugins.on_serve(server, config=config, builder=lambda: None)
    # Watchdog watches a file through its folder (not recursively): docs/ for about.md.
    polled = {Path(emitter.watch.path): emitter.timeout for emitter in server.observer.emitters}
    assert polled == {folder / "seeds": 0.1, folder / "docs": 0.1, folder: 0.5}


def test_under_serve_vectors_embedded_aside_ask_the_running_server_for_a_build(tmp_path, caplog):
    """The sentence model's vectors made on a thread (pipeline.serving_meanings) end with a
    build of their own: the plugin asks MkDocs' server for one as its file watcher does."""
    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer

    folder = site_folder(tmp_path, "\n      inputs: [seeds]")
    config = load_config(str(folder / "mkdocs.yml"))
    plugin = config.plugins["abstracts"]
    plugin.on_startup(command="serve", dirty=True)
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
    config.plugins.on_serve(server, config=config, builder=lambda: None)
    assert not server._want_rebuild
    with caplog.at_level("INFO", logger="mkdocs.plugins.abstracts"):
        plugin.session.tell("the vectors are ready")
    plugin.session.rebuild()
    assert server._want_rebuild
    assert "abstracts: the vectors are ready" in caplog.text


def test_under_serve_a_temporary_file_in_docs_is_not_watched(tmp_path):
    """The last build's topic map may be written (atomically, through a temporary dot file)
    while `serve` starts watching docs/: watching that file, renamed away a moment later,
    stopped the server with FileNotFoundError. Dot files are not watched; a file gone between
    listing and watching is skipped."""
    from mkdocs.config import load_config
    from mkdocs.livereload import LiveReloadServer

    folder = site_folder(tmp_path, "\n      inputs: [seeds]")
    docs = folder / "docs"
    (docs / "about.md").write_text("# About\n", encoding="utf-8")
    (docs / ".map.json.k2j4.tmp").write_text("{}", encoding="utf-8")
    config = load_config(str(folder / "mkdocs.yml"))
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path / "site"))
    server.watch(config.docs_dir)
    watched = []
    real_watch = server.watch

    def watch(path, *args, **kwargs):
        watched.append(Path(path).name)
        if Path(path).name == "vanished.md":
            raise FileNotFoundError(path)
        return real_watch(path, *args, **kwargs)

    server.watch = watch
    (docs / "vanished.md").write_text("# Gone\n", encoding="utf-8")
    config.plugins.on_serve(server, config=config, builder=lambda: None)
    assert "about.md" in watched and "vanished.md" in watched
    assert ".map.json.k2j4.tmp" not in watched


def test_under_serve_the_topic_map_follows_an_edit_into_the_served_site(tmp_path, monkeypatch):
    """The reload after an edit does not wait for the topic map; the map is written after it,
    to docs/ and to the served site, as a one-off build writes it."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    folder = site_folder(tmp_path / "served", "\n      inputs: [seeds]")
    monkeypatch.chdir(folder)
    site, url = tmp_path / "served-site", "http://127.0.0.1:8000/"

    def serve_build(startup: bool = False) -> None:  # as `mkdocs serve --dirty` builds, and rebuilds after an edit
        config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
        config.site_url = url
        if startup:
            config.plugins.on_startup(command="serve", dirty=True)
        build(config, serve_url=url, dirty=True)
        plugin = config.plugins["abstracts"]
        if plugin.finishing is not None:
            plugin.finishing.join()

    serve_build(startup=True)
    seeds = folder / "seeds" / "papers.txt"
    seeds.write_text(seeds.read_text(encoding="utf-8") + "\nWe present GammaFold, a model of protein structure.\n", encoding="utf-8")
    serve_build()
    served = (site / "map.json").read_text(encoding="utf-8")
    assert "GammaFold" in served and served == (folder / "docs" / "map.json").read_text(encoding="utf-8")
    cold = site_folder(tmp_path / "cold", "\n      inputs: [seeds]")
    (cold / "seeds" / "papers.txt").write_bytes(seeds.read_bytes())
    assert mkdocs_build(cold).returncode == 0
    assert served == (cold / "site" / "map.json").read_text(encoding="utf-8")


def test_under_serve_a_rebuild_that_changed_no_page_does_not_index_the_site_again(tmp_path, monkeypatch):
    """An editor that saves in two writes makes MkDocs build twice: the second build, which
    changes no page, keeps the search index (indexing 4,200 papers took 10-14 s of a core)."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from generator.plugin.searchindex import Indexer

    folder = site_folder(tmp_path / "served", "\n      inputs: [seeds]")
    (folder / "docs" / "about.md").write_text("# About\n\nMine.\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    indexed: list[Path] = []
    monkeypatch.setattr(Indexer, "index", lambda self, site_dir, **options: indexed.append(site_dir))
    site, url = tmp_path / "served-site", "http://127.0.0.1:8000/"

    def serve_build(startup: bool = False) -> int:
        config = load_config(str(folder / "mkdocs.yml"), site_dir=str(site))
        config.site_url = url
        if startup:
            config.plugins.on_startup(command="serve", dirty=True)
        before = len(indexed)
        build(config, serve_url=url, dirty=True)
        plugin = config.plugins["abstracts"]
        if plugin.finishing is not None:
            plugin.finishing.join()
        return len(indexed) - before

    seeds = folder / "seeds" / "papers.txt"
    assert serve_build(startup=True) == 1
    seeds.write_text(seeds.read_text(encoding="utf-8"), encoding="utf-8")  # the same bytes written again
    assert serve_build() == 0
    seeds.write_text(seeds.read_text(encoding="utf-8") + "\nWe present GammaFold, a model of protein structure.\n", encoding="utf-8")
    assert serve_build() == 1
    assert serve_build() == 0
    (folder / "docs" / "about.md").write_text("# About\n\nMine, edited.\n", encoding="utf-8")
    assert serve_build() == 1
