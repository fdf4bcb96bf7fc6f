// Search with Pagefind in Material's search box and result list.
//
// Material's own search downloads one index of every page before the first result (14.6 MB
// at 4,200 papers); Pagefind's index is split into chunks, and a search fetches only the
// chunks for its words and the excerpts of the results it shows. The plugin builds the index
// into pagefind/ at the site root (generator/plugin/searchindex.py). The markup is Material's
// (theme/partials/search.html), so the results look like Material's.
//
// Safety: result titles come from input text and are set with textContent; Pagefind's
// excerpts are HTML-escaped text with <mark> around matches, and only the text and the
// <mark>s are copied over (parsed in an inert <template>, nothing in it runs or loads).
(() => {
  // This file is <root>/assets/javascripts/search.js: the site root is two folders up, also
  // when the site is served under a sub-path (a GitHub Pages project site) or from 404.html.
  const root = new URL("../../", document.currentScript.src);
  const PAGE = 10;  // results rendered at a time, as Material does
  const DEBOUNCE_MS = 60;  // skip the searches for words still being typed fast

  // A large site's index comes in parts (generator/plugin/searchindex.py): pagefind/ and the folders
  // pagefind/parts.json lists, merged into one search (results ranked together by score).
  const OPTIONS = { baseUrl: root.pathname, excerptLength: 24 };
  const parts = () => fetch(new URL("pagefind/parts.json", root))
    .then((response) => (response.ok ? response.json() : { parts: [] }))
    .then((listing) => listing.parts ?? [], () => []);

  let pagefind = null;
  const load = () => {
    pagefind ??= Promise.all([import(new URL("pagefind/pagefind.js", root).href), parts()]).then(async ([module, others]) => {
      await module.options(OPTIONS);
      await module.init();
      for (const part of others) await module.mergeIndex(new URL(`pagefind/${part}`, root).href, OPTIONS);
      return module;
    });
    return pagefind;
  };

  const toggle = document.getElementById("__search");
  const setOpen = (open) => {
    // A click emits the change event Material listens to (scroll lock on phones).
    if (toggle && toggle.checked !== open) toggle.click();
  };

  function excerpt(html) {
    const paragraph = document.createElement("p");
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const node of template.content.childNodes) {
      if (node.nodeName === "MARK") {
        const mark = document.createElement("mark");
        mark.textContent = node.textContent;
        paragraph.append(mark);
      } else {
        paragraph.append(node.textContent);
      }
    }
    return paragraph;
  }

  // The title with the words that start with a query word marked, as Material marks them.
  function title(text, query) {
    const heading = document.createElement("h1");
    const terms = [...words(query)].map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.join("|")})[\\p{L}\\p{N}]*`, "giu");
    let last = 0;
    for (const match of terms.length ? text.matchAll(pattern) : []) {
      const mark = document.createElement("mark");
      mark.textContent = match[0];
      heading.append(text.slice(last, match.index), mark);
      last = match.index + match[0].length;
    }
    heading.append(text.slice(last));
    return heading;
  }

  function item(data, query) {
    const li = document.createElement("li");
    li.className = "md-search-result__item";
    const link = document.createElement("a");
    link.className = "md-search-result__link";
    link.href = new URL(data.url, location.href).href;
    link.tabIndex = -1;
    const article = document.createElement("article");
    article.className = "md-search-result__article md-typeset";
    article.dataset.mdScore = data.score.toFixed(2);
    const icon = document.createElement("div");
    icon.className = "md-search-result__icon md-icon";
    article.append(icon, title(data.meta.title || data.url, query), excerpt(data.excerpt));
    link.append(article);
    li.append(link);
    return li;
  }

  // Pagefind stems words, so "ReFusion" also matches "Refusal" and may rank it first. Among
  // the first results, a title that is the query, then one holding more of its words as
  // typed, comes first (a stable sort: Pagefind's order otherwise).
  const words = (text) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  function byTitle(data, query) {
    const wanted = [...words(query)];
    const key = (d) => {
      const title = d.meta.title || "";
      const have = words(title);
      const exact = title.trim().toLowerCase() === query.toLowerCase() ? 1 : 0;
      return [exact, wanted.filter((w) => have.has(w)).length];
    };
    const keys = new Map(data.map((d) => [d, key(d)]));
    return [...data].sort((a, b) => keys.get(b)[0] - keys.get(a)[0] || keys.get(b)[1] - keys.get(a)[1]);
  }

  function bind() {
    const box = document.querySelector(".md-search[data-search]");
    if (!box || box.dataset.searchBound) return;
    box.dataset.searchBound = "true";
    const form = box.querySelector("form");
    const input = box.querySelector(".md-search__input");
    const meta = box.querySelector(".md-search-result__meta");
    const list = box.querySelector(".md-search-result__list");
    const scroll = box.querySelector(".md-search__scrollwrap");
    const text = box.dataset;

    let latest = 0;  // the newest query: results of older ones are dropped
    let shown = { query: "", results: [] };  // the newest query's results, rendered PAGE at a time
    let loading = false;
    let timer;
    let pending = Promise.resolve();

    async function more(ticket) {
      const { query, results } = shown;
      const first = list.children.length === 0;
      const next = results.slice(list.children.length, list.children.length + PAGE);
      let data = await Promise.all(next.map(async (result) => ({ ...(await result.data()), score: result.score })));
      if (ticket !== latest) return;
      if (first) data = byTitle(data, query);
      for (const d of data) list.append(item(d, query));
    }

    async function run() {
      const query = input.value.trim();
      const ticket = ++latest;
      if (query) {
        const search = await (await load()).search(query);
        if (ticket !== latest) return;
        shown = { query, results: search.results };
        const count = search.results.length;
        meta.textContent = count === 0 ? text.searchNone
          : count === 1 ? text.searchOne : text.searchOther.replace("#", count.toLocaleString());
        list.replaceChildren();
        await more(ticket);
      } else {
        shown = { query, results: [] };
        list.replaceChildren();
        meta.textContent = text.searchPlaceholder;
      }
      if (ticket === latest) list.setAttribute("aria-busy", "false");
    }

    const schedule = () => {
      clearTimeout(timer);
      list.setAttribute("aria-busy", "true");  // until the results of what was typed are shown
      pending = new Promise((resolve) => {
        timer = setTimeout(() => run().then(resolve, (error) => { console.error(error); resolve(); }), DEBOUNCE_MS);
      });
    };

    const links = () => [...list.querySelectorAll(".md-search-result__link")];

    input.addEventListener("focus", () => {
      // Deferred: a tap on the header's search button focuses the input from its click
      // handler, before the button (a label) toggles the search open itself.
      setTimeout(() => setOpen(true));
      load().catch((error) => console.error("search could not load", error));
    });
    input.addEventListener("input", schedule);
    form.addEventListener("submit", (event) => event.preventDefault());
    form.addEventListener("reset", () => setTimeout(() => { schedule(); input.focus(); }));
    // On phones the search box is hidden until the header's search button is pressed.
    document.querySelector(".md-header__button[for=__search]")?.addEventListener("click", () => input.focus());
    toggle?.addEventListener("change", () => {
      list.hidden = !toggle.checked;
      list.setAttribute("role", toggle.checked ? "list" : "presentation");
    });
    list.addEventListener("click", (event) => {
      if (event.target.closest("a")) setOpen(false);
    });
    scroll.addEventListener("scroll", () => {
      const bottom = scroll.scrollTop + scroll.clientHeight >= scroll.scrollHeight - 100;
      if (bottom && !loading && list.children.length < shown.results.length) {
        loading = true;
        more(latest).finally(() => { loading = false; });
      }
    });

    box.addEventListener("keydown", async (event) => {
      const items = [input, ...links()];
      switch (event.key) {
        case "Enter":
          if (document.activeElement !== input) return;
          event.preventDefault();
          await pending;  // the reader may press Enter before the last search has run
          links()[0]?.click();
          break;
        case "Escape":
        case "Tab":
          setOpen(false);
          input.blur();
          break;
        case "ArrowUp":
        case "ArrowDown": {
          event.preventDefault();
          const here = Math.max(0, items.indexOf(document.activeElement));
          const step = event.key === "ArrowUp" ? -1 : 1;
          items[(here + step + items.length) % items.length].focus();
          break;
        }
      }
    });

    // "/", "s" or "f" anywhere (outside a text field) opens the search, as in Material.
    addEventListener("keydown", (event) => {
      const active = document.activeElement;
      const typing = active && (active.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName));
      if (typing || event.ctrlKey || event.metaKey || event.altKey || toggle?.checked) return;
      if (event.key === "/" || event.key === "s" || event.key === "f") {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });

    // A link to ?q=words opens the search with those words, as Material's search does.
    const query = new URL(location.href).searchParams.get("q");
    if (query) {
      input.value = query;
      input.focus();
      schedule();
    }
  }

  // The header survives instant navigation, but bind again if a page swap replaced it.
  if (window.document$) {
    document$.subscribe(bind);
  } else {
    bind();
  }
})();
