// The browse page: narrow the papers by area, tags, collection, authors and words in the title.
// Data: browse.json (generator/explore/data.py), each paper as [title, slug, area, collection,
// [tags], [authors]] by number, far smaller than papers.json. Within areas, collections and
// authors any checked one will do; checked tags must all be there; every title word must
// appear. Each choice's count is how many papers it would leave, recounted in one pass on
// every change. Authors can be thousands: only the checked ones and those matching the find
// box (or, with it empty, the authors of most papers) are listed.
// The choices live in the address (?area=…&tag=…&collection=…&author=…&q=…, by name), so a
// reader can bookmark or share a selection and come Back to it from a paper.
// Names and titles come from input: set with textContent only.
(() => {
  const SHOWN = 50;  // results listed at a time
  const AUTHORS_SHOWN = 12;  // authors listed besides the checked ones
  const PARAMS = { areas: "area", collections: "collection", tags: "tag" };

  withPageData(".browse", start);

  const element = (tag, properties = {}, ...children) => {
    const node = Object.assign(document.createElement(tag), properties);
    node.append(...children);
    return node;
  };

  function facet(name, legend, names, order) {
    const boxes = [];
    const fieldset = element("fieldset", { className: `browse__facet browse__facet--${name}` }, element("legend", { textContent: legend }));
    const list = element("ul", { className: "browse__choices" });
    for (const index of order) {
      const box = element("input", { type: "checkbox", value: String(index) });
      const count = element("span", { className: "browse__count" });
      list.append(element("li", {}, element("label", {}, box, ` ${names[index]} `, count)));
      boxes[index] = { box, count, item: list.lastChild, name: names[index].toLowerCase() };
    }
    fieldset.append(list);
    return { fieldset, boxes, checked: () => boxes.filter((b) => b && b.box.checked).map((b) => Number(b.box.value)) };
  }

  function start(root, body, data) {
    const papers = data.papers;
    const totals = new Array(data.tags.length).fill(0);
    for (const paper of papers) for (const tag of paper[4]) totals[tag] += 1;
    const byCount = (counts) => [...counts.keys()].sort((a, b) => counts[b] - counts[a]);
    const areaTotals = new Array(data.areas.length).fill(0);
    const collectionTotals = new Array(data.collections.length).fill(0);
    for (const paper of papers) {
      areaTotals[paper[2]] += 1;
      collectionTotals[paper[3]] += 1;
    }
    const words = element("input", { type: "search", className: "browse__words", placeholder: "Words in the title" });
    const areas = facet("areas", "Area", data.areas, byCount(areaTotals));
    const collections = facet("collections", "Collection", data.collections, byCount(collectionTotals));
    const tags = facet("tags", "Tags (all of)", data.tags, byCount(totals));
    const tagFilter = element("input", { type: "search", className: "browse__tag-filter", placeholder: "Find a tag" });
    tags.fieldset.insertBefore(element("label", { className: "browse__tag-filter-label" }, "Find a tag ", tagFilter), tags.fieldset.children[1]);
    const authorNames = data.authors || [];
    const chosenAuthors = new Set();
    const authorFilter = element("input", { type: "search", className: "browse__author-filter", placeholder: "Part of a name" });
    const authorList = element("ul", { className: "browse__choices browse__choices--authors" });
    const authorFacet = element("fieldset", { className: "browse__facet browse__facet--authors" }, element("legend", { textContent: "Authors" }),
      element("label", { className: "browse__tag-filter-label" }, "Find an author ", authorFilter), authorList);
    authorFacet.hidden = !authorNames.length;
    const clear = element("button", { type: "button", className: "md-button browse__clear", textContent: "Clear all" });
    const status = element("p", { className: "browse__status" });
    status.setAttribute("role", "status");
    const results = element("ol", { className: "browse__results" });
    const more = element("button", { type: "button", className: "md-button browse__more", textContent: "Show more" });
    const titles = papers.map((p) => p[0].toLowerCase());
    let shown = SHOWN;
    let matching = [];
    const facets = { areas, collections, tags };

    function restore() {
      const query = new URLSearchParams(location.search);
      for (const [key, param] of Object.entries(PARAMS)) {
        const wanted = new Set(query.getAll(param));
        facets[key].boxes.forEach((entry, index) => {
          if (entry) entry.box.checked = wanted.has(data[key][index]);
        });
      }
      words.value = query.get("q") || "";
      const wantedAuthors = new Set(query.getAll("author"));
      chosenAuthors.clear();
      authorNames.forEach((name, index) => {
        if (wantedAuthors.has(name)) chosenAuthors.add(index);
      });
    }

    // replaceState, not pushState: Back leaves the page rather than undoing one click.
    function remember() {
      const query = new URLSearchParams();
      for (const [key, param] of Object.entries(PARAMS)) {
        for (const index of facets[key].checked()) query.append(param, data[key][index]);
      }
      for (const index of chosenAuthors) query.append("author", authorNames[index]);
      if (words.value.trim()) query.set("q", words.value.trim());
      const search = query.toString();
      history.replaceState(history.state, "", `${location.pathname}${search ? `?${search}` : ""}${location.hash}`);
    }

    function update() {
      const wantedWords = words.value.toLowerCase().split(/\s+/).filter(Boolean);
      const wantedAreas = new Set(areas.checked());
      const wantedCollections = new Set(collections.checked());
      const wantedTags = tags.checked();
      const areaCounts = new Array(data.areas.length).fill(0);
      const collectionCounts = new Array(data.collections.length).fill(0);
      const tagCounts = new Array(data.tags.length).fill(0);
      const authorCounts = new Array(authorNames.length).fill(0);
      matching = [];
      papers.forEach((paper, i) => {
        const [, , area, collection, paperTags, paperAuthors = []] = paper;
        const rest = wantedWords.every((w) => titles[i].includes(w)) && wantedTags.every((t) => paperTags.includes(t));
        if (!rest) return;
        const areaOk = !wantedAreas.size || wantedAreas.has(area);
        const collectionOk = !wantedCollections.size || wantedCollections.has(collection);
        const authorOk = !chosenAuthors.size || paperAuthors.some((a) => chosenAuthors.has(a));
        if (collectionOk && authorOk) areaCounts[area] += 1;
        if (areaOk && authorOk) collectionCounts[collection] += 1;
        if (areaOk && collectionOk) for (const author of paperAuthors) authorCounts[author] += 1;
        if (areaOk && collectionOk && authorOk) {
          matching.push(i);
          for (const tag of paperTags) tagCounts[tag] += 1;
        }
      });
      listAuthors(authorCounts);
      const tagWanted = tagFilter.value.trim().toLowerCase();
      for (const [group, counts] of [[areas, areaCounts], [collections, collectionCounts], [tags, tagCounts]]) {
        group.boxes.forEach((entry, index) => {
          if (!entry) return;
          entry.count.textContent = `(${counts[index]})`;
          const findable = group !== tags || !tagWanted || entry.name.includes(tagWanted);
          entry.item.hidden = !entry.box.checked && (counts[index] === 0 || !findable);
        });
      }
      status.textContent = `${matching.length} paper${matching.length === 1 ? "" : "s"}`;
      root.dataset.count = String(matching.length);
      shown = SHOWN;
      list();
      remember();
    }

    // Each result with its reading-list button (reading-list.js), when a site has not left it out.
    function list() {
      results.replaceChildren(...matching.slice(0, shown).map((i) => element("li", {},
        element("a", { href: `${root.dataset.papers}${encodeURIComponent(papers[i][1])}/`, textContent: papers[i][0] }),
        ...(window.readingList ? [" ", window.readingList.button(papers[i][1], papers[i][0])] : []))));
      more.hidden = matching.length <= shown;
    }

    // The checked authors, then those the find box matches (or the authors of most papers).
    function listAuthors(counts) {
      const wanted = authorFilter.value.trim().toLowerCase();
      const others = [];
      authorNames.forEach((name, index) => {
        if (!chosenAuthors.has(index) && counts[index] && (!wanted || name.toLowerCase().includes(wanted))) others.push(index);
      });
      if (!wanted) others.sort((a, b) => counts[b] - counts[a] || a - b);
      const shown = [...chosenAuthors, ...others.slice(0, AUTHORS_SHOWN)];
      // The list is made again: a box ticked from the keyboard keeps the focus.
      const focused = document.activeElement && document.activeElement.dataset.author ? document.activeElement.value : null;
      authorList.replaceChildren(...shown.map((index) => {
        const box = element("input", { type: "checkbox", value: String(index), checked: chosenAuthors.has(index) });
        box.dataset.author = "true";
        return element("li", {}, element("label", {}, box, ` ${authorNames[index]} `, element("span", { className: "browse__count", textContent: `(${counts[index]})` })));
      }));
      if (focused !== null) authorList.querySelector(`input[value="${focused}"]`)?.focus();
      if (others.length > AUTHORS_SHOWN) {
        authorList.append(element("li", { className: "browse__more-authors", textContent: `${others.length - AUTHORS_SHOWN} more: type part of a name` }));
      }
    }

    root.addEventListener("change", (event) => {
      if (event.target.dataset.author) {
        const index = Number(event.target.value);
        if (event.target.checked) chosenAuthors.add(index);
        else chosenAuthors.delete(index);
      }
      if (event.target.type === "checkbox") update();
    });
    authorFilter.addEventListener("input", update);
    words.addEventListener("input", update);
    tagFilter.addEventListener("input", update);
    more.addEventListener("click", () => {
      shown += SHOWN;
      list();
    });
    clear.addEventListener("click", () => {
      for (const box of root.querySelectorAll("input[type=checkbox]")) box.checked = false;
      words.value = tagFilter.value = authorFilter.value = "";
      chosenAuthors.clear();
      update();
    });
    const controls = element("div", { className: "browse__controls" },
      element("label", { className: "browse__words-label" }, "Title words ", words), areas.fieldset, collections.fieldset, authorFacet, tags.fieldset, clear);
    root.append(controls, element("div", { className: "browse__list" }, status, results, more));
    restore();
    update();
    performance.mark("browse-ready");  // when the page answered (bench/explore_bench.py reads it)
  }
})();
