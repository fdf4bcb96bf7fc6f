"""The data the exploring pages load at view time, built once per site:

- map.json: every paper's place on the topic map (generator.topicmap), area, title, summary
  and page, plus labelled regions at two levels (broad ones shown zoomed out, finer ones
  zoomed in), named from the collection's own tags and key phrases;
- browse.json: a compact index for the browse page (areas, tags, collections by number;
  each paper as title, page and those numbers), far smaller than papers.json.

Pages load these with fetch, so each page's HTML stays the same size whatever the number of
papers. Values are plain JSON strings; the scripts show them with textContent only.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from .model import Paper

# Regions: about one broad region per 250 papers (6 to 18) and one finer topic per 50 (12 to 90).
BROAD = (250, 6, 18)
FINE = (50, 12, 90)
KMEANS_STEPS = 30
SECOND_TERM_SHARE = 0.6
GRID = 10000  # positions are sent as whole numbers on a 10,000 x 10,000 grid


def _region_count(n: int, per: int, low: int, high: int) -> int:
    return max(1, min(high, max(low, round(n / per)), n // 3 or 1))


def _kmeans(points: np.ndarray, k: int) -> np.ndarray:
    """Which of k regions each point falls in (Lloyd's algorithm from points spread by a fixed
    seed: the same papers make the same regions)."""
    rng = np.random.default_rng(0)
    centres = points[rng.choice(len(points), size=k, replace=False)]
    assignment = np.zeros(len(points), dtype=int)
    for _ in range(KMEANS_STEPS):
        distances = ((points[:, None, :] - centres[None, :, :]) ** 2).sum(axis=2)
        assignment = distances.argmin(axis=1)
        for c in range(k):
            members = points[assignment == c]
            if len(members):
                centres[c] = members.mean(axis=0)
    return assignment


def _terms(paper: Paper) -> set[str]:
    return {*paper.tags, *paper.keyphrases}


def _ranked_terms(papers: list[Paper], members: np.ndarray, document_frequency: Counter) -> tuple[list[str], Counter]:
    """The region's terms, most particular first (class TF-IDF: share in the region times
    rarity in the collection), with their counts in the region."""
    counts = Counter(term for i in members for term in _terms(papers[i]))
    # A label must describe several of the region's papers, not one paper's phrase.
    floor = max(2, len(members) // 10)
    n = len(papers)
    scored = sorted(
        (-(count / len(members)) * math.log(n / document_frequency[term]), term)
        for term, count in counts.items() if count >= floor
    )
    return [term for _, term in scored], counts


def _overlapping(term: str, chosen: list[str]) -> bool:
    return any(term.casefold() in other.casefold() or other.casefold() in term.casefold() for other in chosen)


def _regions(papers: list[Paper], points: np.ndarray, k: int, words: int, document_frequency: Counter) -> list[dict]:
    """Regions named by their most particular terms, placed at the middle of their papers;
    larger regions first, and no two regions of a level with the same name."""
    assignment = _kmeans(points, k)
    groups = sorted((np.flatnonzero(assignment == c) for c in range(k)), key=lambda m: -len(m))
    regions, taken = [], set()
    for members in groups:
        if len(members) < 3:
            continue
        ranked, counts = _ranked_terms(papers, members, document_frequency)
        chosen: list[str] = []
        for term in ranked:
            if _overlapping(term, chosen):
                continue
            # A second term only when it is nearly as common in the region as the first (a label
            # of two topics each held by a corner of the region describes neither), or when the
            # first alone already names a larger region.
            if chosen and counts[term] < counts[chosen[0]] * SECOND_TERM_SHARE and " · ".join(chosen) not in taken:
                continue
            chosen.append(term)
            if len(chosen) == words and " · ".join(chosen) not in taken:
                break
            if len(chosen) == words:
                chosen.pop()
        label = " · ".join(chosen)
        if not chosen or label in taken:
            continue
        taken.add(label)
        middle = np.median(points[members], axis=0)
        regions.append({"label": label, "x": int(middle[0] * GRID), "y": int(middle[1] * GRID), "size": int(len(members))})
    return regions


def map_data(papers: list[Paper], points: np.ndarray, areas: list[str]) -> dict:
    """Papers as parallel lists (short keys: the file is fetched by every map view)."""
    area_index = {name: i for i, name in enumerate(areas)}
    document_frequency = Counter(term for p in papers for term in _terms(p))
    n = len(papers)
    return {
        "areas": areas,
        "x": [int(x * GRID) for x, _ in points],
        "y": [int(y * GRID) for _, y in points],
        "area": [area_index[p.area] for p in papers],
        "title": [p.title for p in papers],
        "summary": [p.summary for p in papers],
        "slug": [p.slug for p in papers],
        "broad": _regions(papers, points, _region_count(n, *BROAD), 2, document_frequency) if n >= 8 else [],
        "fine": _regions(papers, points, _region_count(n, *FINE), 1, document_frequency) if n >= 8 else [],
    }


def browse_data(papers: list[Paper], areas: list[str], tags: list[str], collections: list[str]) -> dict:
    """Each paper as [title, slug, area, collection, [tags]] by number into the name lists."""
    area_index = {name: i for i, name in enumerate(areas)}
    tag_index = {name: i for i, name in enumerate(tags)}
    collection_index = {name: i for i, name in enumerate(collections)}
    return {
        "areas": areas,
        "tags": tags,
        "collections": collections,
        "papers": [
            [p.title, p.slug, area_index[p.area], collection_index[p.collection], [tag_index[t] for t in p.tags if t in tag_index]]
            for p in papers
        ],
    }
