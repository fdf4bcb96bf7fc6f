"""The topic map and Browse, drawn from map.json and browse.json by the site's scripts; tag pages' sorting."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

from browsing import CHROMIUM, DATA_PAGES_READY, EFM, IN_CI, YELLOW_PIXELS, Tab, expect, map_labels, overlaps, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists() and not IN_CI, reason=f"{CHROMIUM} not installed (make browser-deps)"),
]


def test_the_map_names_regions_apart_and_zooming_in_names_finer_topics(tab, site):
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    page = tab.open("map/")
    broad = map_labels(page, "broad")
    canvas = page.locator(".topic-map canvas").bounding_box()
    assert len(broad) >= 4 and overlaps(broad) == []
    assert {b["label"] for b in broad} <= {r["label"] for r in data["broad"]}
    assert all(0 <= b["left"] and b["right"] <= canvas["width"] and 0 <= b["top"] and b["bottom"] <= canvas["height"] for b in broad)
    page.locator(".topic-map canvas").focus()
    # Pan to the largest finer topic (an arrow moves the view an eighth of the map), then zoom
    # in: which topics sit in the middle depends on the papers.
    region = data["fine"][0]
    for key, steps in (("ArrowRight", round((region["x"] / 10000 - 0.5) * 8)), ("ArrowDown", round((region["y"] / 10000 - 0.5) * 8))):
        for _ in range(abs(steps)):
            page.keyboard.press(key if steps > 0 else {"ArrowRight": "ArrowLeft", "ArrowDown": "ArrowUp"}[key])
    for _ in range(3):
        page.keyboard.press("+")
    fine = map_labels(page, "fine")
    assert fine and overlaps(fine) == [] and {b["label"] for b in fine} <= {r["label"] for r in data["fine"]}
    # The keyboard shows the paper nearest the cross, and Enter opens it.
    title = page.locator(".topic-map__tip strong").inner_text()
    page.keyboard.press("Enter")
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_map_search_highlights_matches_and_a_dot_opens_its_paper(tab, site):
    data = json.loads((site / "map.json").read_text(encoding="utf-8"))
    page = tab.open("map/")
    map_labels(page, "broad")
    assert page.evaluate(YELLOW_PIXELS) == 0
    expected = sum("language" in title.lower() for title in data["title"])
    page.locator(".topic-map__search").fill("Language")
    expect(page.locator(".topic-map__found")).to_have_text(f"{expected} papers found")
    assert expected > 1
    page.wait_for_function(f"({YELLOW_PIXELS})() > {20 * expected}")  # drawn in the next frame

    page.locator(".topic-map canvas").scroll_into_view_if_needed()
    box = page.locator(".topic-map canvas").bounding_box()
    side = min(box["width"], box["height"])
    x = box["x"] + (data["x"][0] / 10000 - 0.5) * side + box["width"] / 2
    y = box["y"] + (data["y"][0] / 10000 - 0.5) * side + box["height"] / 2
    page.mouse.move(x, y)
    tip = page.locator(".topic-map__tip")
    expect(tip).to_be_visible()
    title = tip.locator("strong").inner_text()
    assert title in data["title"] and data["summary"][data["title"].index(title)] in tip.inner_text()
    page.mouse.click(x, y)
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_the_legend_filters_areas_and_a_paper_page_shows_where_it_sits(tab, published):
    page = tab.open(EFM)
    title = page.locator("article h1").inner_text()
    page.locator(".paper-map-link").click()
    expect(page.locator(".topic-map__tip strong")).to_have_text(title)
    expect(page.locator(".topic-map")).to_have_attribute("data-level", "fine")  # set when the zoom settles: wait for it
    page.locator(".topic-map__search").fill(title)
    expect(page.locator(".topic-map__found")).to_have_text("1 paper found")
    page.wait_for_function(f"({YELLOW_PIXELS})() > 0")
    for box in page.locator(".topic-map__area").all():
        box.uncheck()
    page.wait_for_function(f"({YELLOW_PIXELS})() === 0")  # the match's area is hidden
    tab.assert_clean()


def test_the_map_works_by_touch_on_a_phone(browser, base, site):
    context = browser.new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    tab = Tab(context, base)
    try:
        page = tab.open("map/")
        labels = map_labels(page, "broad")
        assert len(labels) >= 3 and overlaps(labels) == []
        data = json.loads((site / "map.json").read_text(encoding="utf-8"))
        page.locator(".topic-map canvas").scroll_into_view_if_needed()
        box = page.locator(".topic-map canvas").bounding_box()
        side = min(box["width"], box["height"])
        page.touchscreen.tap(
            box["x"] + (data["x"][5] / 10000 - 0.5) * side + box["width"] / 2,
            box["y"] + (data["y"][5] / 10000 - 0.5) * side + box["height"] / 2,
        )
        expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
        tab.assert_clean()
    finally:
        context.close()


def test_browse_filters_combine_count_as_the_index_says_and_answer_at_once(tab, site):
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = index["papers"]
    page = tab.open("browse/")
    page.wait_for_function(DATA_PAGES_READY)
    status = page.locator(".browse__status")
    expect(status).to_have_text(f"{len(papers)} papers")

    area = max(range(len(index["areas"])), key=lambda a: sum(p[2] == a for p in papers))
    in_area = [p for p in papers if p[2] == area]
    tag = max(range(len(index["tags"])), key=lambda t: sum(t in p[4] for p in in_area))
    expected_tag_count = sum(tag in p[4] for p in in_area)
    page.locator(f".browse__facet--areas input[value='{area}']").check()
    expect(status).to_have_text(f"{len(in_area)} paper{'s' if len(in_area) != 1 else ''}")
    # Each tag's count is what checking it would leave.
    expect(
        page.locator(
            f".browse__facet--tags input[value='{tag}'] + .browse__count, "
            f".browse__facet--tags label:has(input[value='{tag}']) .browse__count"
        )
    ).to_have_text(f"({expected_tag_count})")
    elapsed = page.evaluate(f"""() => {{ const box = document.querySelector(".browse__facet--tags input[value='{tag}']");
        const start = performance.now(); box.click(); return performance.now() - start; }}""")
    expect(status).to_have_text(f"{expected_tag_count} paper{'s' if expected_tag_count != 1 else ''}")
    assert elapsed < 100
    word = next(w for w in papers[0][0].lower().split() if len(w) > 4)
    page.locator(".browse__words").fill(word)
    expected = sum(p[2] == area and tag in p[4] and word in p[0].lower() for p in papers)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    assert page.locator(".browse__results li").count() == min(expected, 50)
    page.locator(".browse__clear").click()
    expect(status).to_have_text(f"{len(papers)} papers")
    first = page.locator(".browse__results a").first
    title = first.inner_text()
    first.click()
    expect(page.locator("article h1")).to_have_text(title)
    tab.assert_clean()


def test_browse_choices_are_kept_in_the_address_to_share_and_come_back_to(tab, site):
    index = json.loads((site / "browse.json").read_text(encoding="utf-8"))
    papers = index["papers"]
    area = max(range(len(index["areas"])), key=lambda a: sum(p[2] == a for p in papers))
    tag = max(range(len(index["tags"])), key=lambda t: sum(p[2] == area and t in p[4] for p in papers))
    expected = sum(p[2] == area and tag in p[4] for p in papers)
    query = urlencode({"area": index["areas"][area], "tag": index["tags"][tag]})
    # A shared link opens with its choices made.
    page = tab.open(f"browse/?{query}")
    page.wait_for_function(DATA_PAGES_READY)
    status = page.locator(".browse__status")
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    expect(page.locator(f".browse__facet--areas input[value='{area}']")).to_be_checked()
    # A change is written back to the address; a paper opened from the list, then Back, returns to it.
    page.locator(f".browse__facet--areas input[value='{area}']").uncheck()
    expected = sum(tag in p[4] for p in papers)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    assert parse_qs(urlsplit(page.url).query) == {"tag": [index["tags"][tag]]}
    page.locator(".browse__results a").first.click()
    expect(page).to_have_url(re.compile(r"/papers/[^/]+/$"))
    page.go_back()
    page.wait_for_function(DATA_PAGES_READY)
    expect(status).to_have_text(f"{expected} paper{'s' if expected != 1 else ''}")
    expect(page.locator(f".browse__facet--tags input[value='{tag}']")).to_be_checked()
    tab.assert_clean()


def test_browse_works_under_a_sub_path(browser, site, tmp_path):
    (tmp_path / "project").symlink_to(site)
    server, url = serve(tmp_path)
    context = browser.new_context()
    try:
        tab = Tab(context, url + "project/")
        page = tab.open("browse/")
        page.wait_for_function(DATA_PAGES_READY)
        page.locator(".browse__results a").first.click()
        expect(page).to_have_url(re.compile(r"/project/papers/[^/]+/$"))
        tab.assert_clean()
    finally:
        context.close()
        server.shutdown()


def test_a_tag_page_sorts_by_title_on_request_and_the_tag_index_filters(tab):
    page = tab.open("tags/large-language-models/")
    items = page.locator("article ul").last.locator("li > a:first-child")
    ranked = items.all_inner_texts()
    page.locator(".sort-toggle").click()
    assert items.all_inner_texts() == sorted(ranked, key=str.casefold) != ranked
    page.locator(".sort-toggle").click()
    assert items.all_inner_texts() == ranked
    page = tab.open("tags/")
    page.locator(".table-filter__input").fill("language")
    visible = page.locator("article tbody tr:visible td:first-child").all_inner_texts()
    assert visible and all("language" in name.lower() for name in visible)
    tab.assert_clean()
