// Under `mkdocs serve` only (the notice element is rendered only there): what the generator could
// not read in the inputs, from the file the plugin writes after every build. The live-reload
// script reloads the page after each build, so a save that mends the file removes the notice.
// A dismissed notice stays dismissed for this tab until the problems change.
document$.subscribe(async ({ body }) => {
  const notice = body.querySelector(".abstracts-notice");
  if (!notice) return;
  let problems = [];
  try {
    const response = await fetch(notice.dataset.notice, { cache: "no-store" });
    if (response.ok) problems = (await response.json()).problems || [];
  } catch {
    return; // the server is rebuilding: the next reload asks again
  }
  const key = "abstracts-notice-dismissed";
  const said = JSON.stringify(problems);
  if (!problems.length || sessionStorage.getItem(key) === said) {
    notice.hidden = true;
    return;
  }
  const list = notice.querySelector(".abstracts-notice__problems");
  list.replaceChildren(
    ...problems.map((problem) => {
      const item = document.createElement("li");
      item.textContent = problem; // text, never markup: file names and messages come from the inputs
      return item;
    }),
  );
  notice.querySelector(".abstracts-notice__dismiss").onclick = () => {
    sessionStorage.setItem(key, said);
    notice.hidden = true;
  };
  notice.hidden = false;
});
