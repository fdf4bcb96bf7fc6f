// Shared by the map and browse pages: the element that names its data file in data-src is
// given that file once it has loaded. document$ re-runs this after every instant-navigation
// page change; the file is fetched relative to the page, so a site under a sub-path works.
// data-ready says how far it got: "loading", "failed", or "true" once start has run.
window.withPageData = (selector, start) => {
  document$.subscribe(({ body }) => {
    const root = body.querySelector(`${selector}[data-src]`);
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "loading";
    fetch(new URL(root.dataset.src, location.href))
      .then((response) => {
        if (!response.ok) throw new Error(`${root.dataset.src}: HTTP ${response.status}`);
        return response.json();
      })
      .then((data) => {
        start(root, body, data);
        root.dataset.ready = "true";
      })
      .catch((error) => {
        root.dataset.ready = "failed";
        console.warn(error);
      });
  });
};
