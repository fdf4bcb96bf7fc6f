"""`mkdocs serve` while an editor saves input half-written (issue 56): the open page keeps
answering, the site keeps the file's last readable abstracts, every page shows a notice naming
the file and line, other edits still show, and the next good save removes the notice."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from serving import copy_project, mkdocs_serve, wait_for_text

from browsing import AXE, CHROMIUM, IN_CI, axe_violations, sync_api

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]

SEED = "000_e6ef8c7282d14a17.txt"
JSONL_RECORD = {
    "id": "typed-1",
    "title": "Sparse Lanterns for Graph Coarsening",
    "abstract": "We propose sparse lanterns, a method for graph coarsening that keeps spectra within a bound.",
}
CSV_TEXT = 'title,abstract\nQuiet Harbours for Federated Tuning,"We study quiet harbours, a federated fine-tuning schedule that halves communication."\n'


def answers_quickly(url: str) -> None:
    """The server answers within 2 s (MkDocs holds every request while its last build failed)."""
    began = time.monotonic()
    with urllib.request.urlopen(url, timeout=2) as response:
        assert response.status == 200
    assert time.monotonic() - began < 2


def open_page(page, url: str) -> None:
    """Go to `url`; a live reload right after the server started may abort the first try."""
    for _ in range(5):
        try:
            page.goto(url)
            return
        except sync_api.Error:
            time.sleep(0.5)
    page.goto(url)


def notice_of(page):
    return page.locator(".abstracts-notice")


@pytest.fixture
def served(tmp_path):
    """A copy of the project with a JSON Lines and a CSV input beside the seeds, served."""
    config = copy_project(tmp_path / "project")
    seeds = config.parent / "seeds"
    (seeds / "typed.jsonl").write_text(json.dumps(JSONL_RECORD) + "\n", encoding="utf-8")
    (seeds / "sheet.csv").write_text(CSV_TEXT, encoding="utf-8")
    log = tmp_path / "serve.log"
    with mkdocs_serve(config, log) as base:
        yield seeds, base, log


def test_a_half_written_save_keeps_the_last_good_site_served_with_a_notice(served, browser):
    seeds, base, log = served
    wait_for_text(base + "papers/sparse-lanterns-for-graph-coarsening/", "sparse lanterns")
    page = browser.new_page()
    try:
        open_page(page, base + "papers/sparse-lanterns-for-graph-coarsening/")
        sync_api.expect(notice_of(page)).to_be_hidden()
        seed = seeds / SEED
        good = seed.read_bytes()

        # A bad byte in the seeds: the page keeps answering, the notice names file and line.
        broken = good + b"\n\nAn abstract pasted with a bad byte \xff in it.\n"
        seed.write_bytes(broken)
        line = broken[: broken.index(b"\xff")].count(b"\n") + 1
        sync_api.expect(notice_of(page)).to_be_visible(timeout=30_000)
        sync_api.expect(notice_of(page)).to_contain_text(f"seeds/{SEED}:{line}: invalid UTF-8 byte 0xff")
        if AXE.exists() or IN_CI:  # the notice is announced (role alert) and passes axe in light and dark
            assert axe_violations(page) == []
            page.emulate_media(color_scheme="dark")
            assert axe_violations(page) == []
            page.emulate_media(color_scheme="light")
        answers_quickly(base)
        answers_quickly(base + "papers/sparse-lanterns-for-graph-coarsening/")
        # The seeds' papers are still there (their last good version) ...
        wait_for_text(base + "papers.json", "PatchSAE")
        # ... and an edit of another file meanwhile shows.
        edited = {**JSONL_RECORD, "abstract": JSONL_RECORD["abstract"] + " Edited while the seeds were broken."}
        (seeds / "typed.jsonl").write_text(json.dumps(edited) + "\n", encoding="utf-8")
        wait_for_text(base + "papers/sparse-lanterns-for-graph-coarsening/", "Edited while the seeds were broken.")

        # The next good save: the notice goes, and the page shows the mended abstract.
        seed.write_bytes(good + b"\n\nWe propose MendNet, a network that mends bytes in pasted abstracts of graph lanterns.\n")
        open_page(page, base + "papers/sparse-lanterns-for-graph-coarsening/")
        sync_api.expect(notice_of(page)).to_be_hidden(timeout=30_000)
        wait_for_text(base + "papers.json", "MendNet")

        # A JSON Lines record half typed.
        (seeds / "typed.jsonl").write_text(json.dumps(edited) + '\n{"id": "x1", "abstract": "An abstract being typed', encoding="utf-8")
        sync_api.expect(notice_of(page)).to_contain_text("typed.jsonl:2: invalid JSON", timeout=30_000)
        answers_quickly(base + "papers/sparse-lanterns-for-graph-coarsening/")
        sync_api.expect(page.locator(".paper-abstract")).to_contain_text("Edited while the seeds were broken.")
        (seeds / "typed.jsonl").write_text(json.dumps(edited) + "\n", encoding="utf-8")
        sync_api.expect(notice_of(page)).to_be_hidden(timeout=30_000)

        # A CSV cell whose quote is never closed.
        (seeds / "sheet.csv").write_text(CSV_TEXT + 'Open Quote,"We begin a cell and never close it\n', encoding="utf-8")
        sync_api.expect(notice_of(page)).to_contain_text("sheet.csv:3: invalid CSV", timeout=30_000)
        answers_quickly(base)
        wait_for_text(base + "papers.json", "Quiet Harbours")
        (seeds / "sheet.csv").write_text(CSV_TEXT, encoding="utf-8")
        sync_api.expect(notice_of(page)).to_be_hidden(timeout=30_000)

        # A file never readable yet: left out, with the notice; dismissing hides it.
        (seeds / "new.jsonl").write_text('{"abstract": "Half', encoding="utf-8")
        sync_api.expect(notice_of(page)).to_contain_text("new.jsonl:1", timeout=30_000)
        sync_api.expect(notice_of(page)).to_contain_text("left out until it can be read")
        page.get_by_role("button", name="Dismiss this notice").click()
        sync_api.expect(notice_of(page)).to_be_hidden()
        text = log.read_text()
        assert text.count("new.jsonl:1") == 1, "said once per change, not at every build"
        assert "Traceback" not in text and "Aborted" not in text
    except AssertionError:
        print(log.read_text()[-4000:])
        raise
    finally:
        page.close()


def test_a_deleted_or_renamed_input_file_takes_its_pages_along(served, browser):
    seeds, base, log = served
    wait_for_text(base + "papers.json", "Quiet Harbours")
    (seeds / "sheet.csv").rename(seeds / "renamed.csv")
    wait_for_text(base + "papers/quiet-harbours-for-federated-tuning/", "renamed.csv")
    (seeds / "renamed.csv").unlink()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with urllib.request.urlopen(base + "papers.json", timeout=2) as response:
            if "Quiet Harbours" not in response.read().decode("utf-8"):
                break
        time.sleep(0.2)
    else:
        pytest.fail("the deleted file's paper is still listed")
    # No stale page left in the served site (removed at the end of the build that dropped it).
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(base + "papers/quiet-harbours-for-federated-tuning/", timeout=2).close()
        except urllib.error.HTTPError as error:
            assert error.code == 404
            break
        time.sleep(0.2)
    else:
        pytest.fail("the deleted file's paper page is still served")
    answers_quickly(base)
    assert "Traceback" not in log.read_text()
