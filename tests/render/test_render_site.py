"""Papers -> the generated files (generator.render.site): each paper page carries the front
matter other tools rely on, papers.json lists every paper, and each tag, area and collection
gets a page listing its papers."""

from __future__ import annotations

import json
import re

import frontmatter
import pytest

from generator.enrich.paper import enrich
from generator.link.corpus import glossary, link
from generator.model import Origin, Record
from generator.render.site import render_site

ABSTRACTS = [
    "We propose PatchSAE, a sparse autoencoder for vision transformers that explains how CLIP adapts. Code: https://github.com/x/patchsae.",
    "We compare our probing method with PatchSAE on CLIP and find concepts that sparse autoencoders miss in vision transformers.",
    "We study reinforcement learning from human feedback for large language models with a reward model trained on preferences.",
    "Large language models are aligned with reinforcement learning from human feedback; we show the reward model can be hacked.",
]


@pytest.fixture(scope="module")
def files():
    records = [Record(abstract=a, origin=Origin("papers.txt", i + 1, 2 * i + 3), collection="Test Papers") for i, a in enumerate(ABSTRACTS)]
    papers = link([enrich(r) for r in records], 2)
    return papers, render_site(papers, glossary(papers), "Test Papers")


def test_every_paper_page_has_the_front_matter_contract(files):
    papers, out = files
    for paper in papers:
        page = frontmatter.loads(out[f"papers/{paper.slug}.md"])
        assert {"id", "title", "summary", "tags", "keyphrases", "area", "links", "related", "source"} <= page.metadata.keys()
        assert page.metadata["id"] == paper.id and page.metadata["title"] == paper.title
        assert page.metadata["source"]["file"] == "papers.txt"
        for related in page.metadata["related"]:
            assert {"id", "title", "url", "score", "reasons"} <= related.keys()


def test_papers_json_lists_every_paper_with_its_derived_fields(files):
    papers, out = files
    data = json.loads(out["papers.json"])
    assert [p["id"] for p in data["papers"]] == [p.id for p in papers]
    assert all(p["title"] and p["summary"] and p["tags"] for p in data["papers"])


def test_each_tag_area_and_collection_has_a_page_listing_its_papers(files):
    papers, out = files
    assert "collections/test-papers.md" in out
    listed = out["collections/test-papers.md"]
    assert all(f"../papers/{p.slug}.md" in listed for p in papers)
    for paper in papers:
        assert any(name.startswith("tags/") and f"../papers/{paper.slug}.md" in text for name, text in out.items() if isinstance(text, str))
    assert "index.md" in out and "glossary.md" in out and "browse.md" in out and "reading-list.md" in out


def test_a_link_in_the_abstract_is_on_its_paper_page(files):
    papers, out = files
    page = frontmatter.loads(out[f"papers/{papers[0].slug}.md"])
    assert [link["url"] for link in page.metadata["links"]] == ["https://github.com/x/patchsae"]


def test_a_tag_page_lists_first_the_papers_most_about_the_tag(files):
    # Issue 33: given as a keyword first, then by the evidence that the abstract is about it.
    from dataclasses import replace

    from generator.render.site import listing_files

    papers, _ = files
    tag = "sparse autoencoders"
    made = [
        replace(papers[0], tags=("interpretability", tag), tag_choice=replace(papers[0].tag_choice, given=(), scores=((tag, 0.2),))),
        replace(papers[1], tags=(tag,), tag_choice=replace(papers[1].tag_choice, given=(), scores=((tag, 0.9),))),
        replace(papers[2], tags=("rlhf", tag), tag_choice=replace(papers[2].tag_choice, given=(tag,), scores=())),
        replace(papers[3], tags=(tag, "rlhf"), tag_choice=replace(papers[3].tag_choice, given=(), scores=((tag, 0.1),))),
    ]
    page = listing_files(made, [], None, None)["tags/sparse-autoencoders.md"]
    order = sorted(made, key=lambda p: page.index(f"../papers/{p.slug}.md"))
    assert order == [made[2], made[1], made[0], made[3]]
    assert "then those whose abstracts are most about it" in page


def test_a_tag_page_names_the_tags_that_share_enough_of_its_papers(files):
    # Related tags: those sharing at least MIN_SHARED_PAPERS (3) papers, by lift; fewer is noise.
    from dataclasses import replace

    from generator.render.site import listing_files

    papers, _ = files
    made = [replace(p, tags=("sparse autoencoders", "interpretability"), tag_choice=replace(p.tag_choice, given=())) for p in papers[:2]]
    made.append(
        replace(papers[2], tags=("sparse autoencoders", "interpretability", "rlhf"), tag_choice=replace(papers[2].tag_choice, given=()))
    )
    made.append(replace(papers[3], tags=("rlhf", "interpretability"), tag_choice=replace(papers[3].tag_choice, given=())))
    pages = listing_files(made, [], None, None)
    related = re.search(r"\*\*Related tags\*\*[^\n]*", pages["tags/sparse-autoencoders.md"]).group(0)
    assert re.findall(r"\]\(([^)]+)\.md\)", related) == ["interpretability"] and "(3 together)" in related
    assert "Related tags" not in pages["tags/rlhf.md"]  # two papers shared with 'interpretability'
