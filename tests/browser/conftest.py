"""The built seeds site in a real browser, the way readers use it: one http.server thread serves it on 127.0.0.1
(answering a missing path with 404.html, as GitHub Pages does) and one headless Debian Chromium, driven by
Playwright, visits it. Built once per test session."""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

import pytest

from browsing import SiteHandler, Tab, launch_chromium, serve, sync_api
from helpers import SEEDS, corpus_file, run_cli


@pytest.fixture(scope="session")
def published(tmp_path_factory) -> tuple[Path, Path, str]:
    """The seeds built for the address they are served at: (site, docs, base URL).

    Material's instant navigation only takes over links to pages listed in sitemap.xml
    under site_url, so the site is built with SITE_URL set to this server's address,
    as the Pages workflow does for the published site.
    """
    folder = tmp_path_factory.mktemp("published")
    site, docs = folder / "site", folder / "docs"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(SiteHandler, directory=str(site)))
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("SITE_URL", url)
            result = run_cli("build", str(SEEDS), "--site", str(site), "--docs", str(docs))
        assert result.returncode == 0, result.stderr
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield site, docs, url
        server.shutdown()
    finally:
        server.server_close()


@pytest.fixture(scope="session")
def site(published) -> Path:
    return published[0]


@pytest.fixture(scope="session")
def base(published) -> str:
    return published[2]


@pytest.fixture(scope="session")
def browser():
    with sync_api.sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def tab(browser, base):
    """A fresh tab (own storage, light scheme, desktop size) that must stay clean."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    tab = Tab(context, base)
    yield tab
    context.close()


AUTHORED_PAPERS = 40  # IJCAI 2024's first records: real names, accents, shared co-authors


@pytest.fixture(scope="session")
def authored(tmp_path_factory) -> tuple[Path, Path, str]:
    """A site of papers with authors, served under a sub-path (/conf/) as a project's Pages
    site is: (site, docs, base URL). Built from the first AUTHORED_PAPERS records of the
    shared IJCAI 2024 corpus; skipped where the corpus is not."""
    folder = tmp_path_factory.mktemp("authored")
    source = corpus_file("ijcai2024.jsonl")
    lines = source.read_text(encoding="utf-8").splitlines()[:AUTHORED_PAPERS]
    (folder / "ijcai2024.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    site, docs = folder / "root" / "conf", folder / "docs"
    result = run_cli("build", str(folder / "ijcai2024.jsonl"), "--site", str(site), "--docs", str(docs))
    assert result.returncode == 0, result.stderr
    server, url = serve(folder / "root")
    yield site, docs, url + "conf/"
    server.shutdown()
