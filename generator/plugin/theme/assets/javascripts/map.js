// The topic map (map page): every paper as a dot on a canvas, coloured by area, with the names
// of regions placed so that no two overlap: broad regions zoomed out, finer topics zoomed in.
// Data: map.json, made by generator/explore/data.py (positions on a 10,000 grid, titles, summaries,
// regions). A canvas, not one element per paper: at 12,000 papers SVG or HTML dots make the
// page slow to load and to pan.
//
// Mouse: drag to pan, wheel to zoom, point at a dot for its title and summary, click to open.
// Touch: one finger pans, two pinch. Keyboard (the canvas is focusable): arrows pan, + and -
// zoom, 0 resets, Enter opens the paper nearest the cross in the middle (shown as on hover).
// Titles and summaries come from input: shown with textContent or drawn on the canvas only.
(() => {
  const GRID = 10000;
  const FINE_ZOOM = 2.5;  // from this zoom on, finer topics replace the broad regions
  const MAX_ZOOM = 40;
  const HIT_PX = 9;  // how near the pointer a dot must be to count as pointed at
  const COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd", "#e6550d",
    "#31a354", "#756bb1", "#636363"];

  withPageData(".topic-map", start);

  function start(frame, body, data) {
    const canvas = frame.querySelector("canvas");
    const tip = frame.querySelector(".topic-map__tip");
    const tools = frame.querySelector(".topic-map__tools");
    const search = frame.querySelector(".topic-map__search");
    const found = frame.querySelector(".topic-map__found");
    const boxes = [...body.querySelectorAll(".topic-map__area")];
    const context = canvas.getContext("2d");
    const n = data.x.length;
    const xs = Float32Array.from(data.x, (v) => v / GRID);
    const ys = Float32Array.from(data.y, (v) => v / GRID);
    const lowerTitles = data.title.map((t) => t.toLowerCase());
    const shownArea = new Array(data.areas.length).fill(true);
    let matches = null;  // indices of papers matching the search, or null
    let current = -1;  // the paper pointed at or nearest the cross
    let view = { x: 0.5, y: 0.5, zoom: 1 };
    let size = { width: 0, height: 0, ratio: 1 };
    let queued = false;

    const screen = (i) => {
      const scale = Math.min(size.width, size.height) * view.zoom;
      return [(xs[i] - view.x) * scale + size.width / 2, (ys[i] - view.y) * scale + size.height / 2];
    };
    const toMap = (px, py) => {
      const scale = Math.min(size.width, size.height) * view.zoom;
      return [(px - size.width / 2) / scale + view.x, (py - size.height / 2) / scale + view.y];
    };
    const visible = (i) => shownArea[data.area[i]];

    function resize() {
      const ratio = window.devicePixelRatio || 1;
      const width = frame.clientWidth;
      const height = Math.round(Math.min(width, window.innerHeight * 0.75));
      size = { width, height, ratio };
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.style.height = `${height}px`;
      draw();
    }

    function draw() {
      if (queued) return;
      queued = true;
      requestAnimationFrame(() => {
        queued = false;
        paint();
      });
    }

    function paint() {
      const { width, height, ratio } = size;
      const style = getComputedStyle(frame);
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, width, height);
      const radius = Math.min(2.2 + view.zoom * 0.35, 6);
      const dimmed = matches !== null;
      // One path per area: 20 fills instead of one per paper.
      for (let area = 0; area < data.areas.length; area += 1) {
        if (!shownArea[area]) continue;
        context.beginPath();
        for (let i = 0; i < n; i += 1) {
          if (data.area[i] !== area) continue;
          const [px, py] = screen(i);
          if (px < -radius || py < -radius || px > width + radius || py > height + radius) continue;
          context.moveTo(px + radius, py);
          context.arc(px, py, radius, 0, 2 * Math.PI);
        }
        context.globalAlpha = dimmed ? 0.18 : 0.8;
        context.fillStyle = COLOURS[area % COLOURS.length];
        context.fill();
      }
      context.globalAlpha = 1;
      labels(style);
      // Matches and the paper shown go over the labels: a reader looking for them must see them.
      if (matches) {
        context.beginPath();
        for (const i of matches) {
          if (!visible(i)) continue;
          const [px, py] = screen(i);
          context.moveTo(px + radius + 2, py);
          context.arc(px, py, radius + 2, 0, 2 * Math.PI);
        }
        context.fillStyle = "#ffd400";
        context.fill();
        context.lineWidth = 1.5;
        context.strokeStyle = style.getPropertyValue("--md-default-fg-color") || "#000";
        context.stroke();
      }
      if (current >= 0) {
        const [px, py] = screen(current);
        context.beginPath();
        context.arc(px, py, radius + 4, 0, 2 * Math.PI);
        context.lineWidth = 2.5;
        context.strokeStyle = style.getPropertyValue("--md-default-fg-color") || "#000";
        context.stroke();
      }
      if (document.activeElement === canvas) {
        context.beginPath();
        context.moveTo(width / 2 - 8, height / 2);
        context.lineTo(width / 2 + 8, height / 2);
        context.moveTo(width / 2, height / 2 - 8);
        context.lineTo(width / 2, height / 2 + 8);
        context.lineWidth = 1.5;
        context.stroke();
      }
    }

    // Larger regions first; a label that would touch one already placed is left out. What was
    // placed is written to data-labels (tests and curious readers).
    function labels(style) {
      const fine = view.zoom >= FINE_ZOOM;
      const regions = fine ? data.fine : data.broad;
      const fontSize = fine ? 13 : 15;
      const ink = style.getPropertyValue("--md-default-fg-color") || "#000";
      const halo = style.getPropertyValue("--md-default-bg-color") || "#fff";
      context.font = `${fine ? 600 : 700} ${fontSize}px ${style.fontFamily}`;
      context.textAlign = "center";
      context.textBaseline = "middle";
      const placed = [];
      for (const region of regions) {
        const lines = region.label.split(" · ");
        const widths = lines.map((line) => context.measureText(line).width);
        const w = Math.max(...widths) + 8;
        const h = lines.length * (fontSize + 2) + 4;
        const scale = Math.min(size.width, size.height) * view.zoom;
        const cx = (region.x / GRID - view.x) * scale + size.width / 2;
        const cy = (region.y / GRID - view.y) * scale + size.height / 2;
        // A label whose papers lie by the map's edge is moved inside it; one whose papers are
        // off screen (panned or zoomed away) is not shown.
        if (cx < 0 || cy < 0 || cx > size.width || cy > size.height || w > size.width) continue;
        const left = Math.min(Math.max(cx - w / 2, 0), size.width - w);
        const top = Math.min(Math.max(cy - h / 2, 0), size.height - h);
        const box = { left, top, right: left + w, bottom: top + h };
        const x = (box.left + box.right) / 2;
        if (placed.some((b) => box.left < b.right && b.left < box.right && box.top < b.bottom && b.top < box.bottom)) continue;
        placed.push({ ...box, label: region.label });
        lines.forEach((line, index) => {
          const y = box.top + 2 + (fontSize + 2) * (index + 0.5);
          context.lineWidth = 4;
          context.strokeStyle = halo;
          context.strokeText(line, x, y);
          context.fillStyle = ink;
          context.fillText(line, x, y);
        });
      }
      frame.dataset.level = fine ? "fine" : "broad";
      frame.dataset.labels = JSON.stringify(placed.map((b) => ({
        label: b.label, left: Math.round(b.left), top: Math.round(b.top), right: Math.round(b.right), bottom: Math.round(b.bottom),
      })));
    }

    function nearest(px, py, limit) {
      let best = -1;
      let bestDistance = limit * limit;
      for (let i = 0; i < n; i += 1) {
        if (!visible(i)) continue;
        const [sx, sy] = screen(i);
        const d = (sx - px) ** 2 + (sy - py) ** 2;
        if (d < bestDistance) {
          best = i;
          bestDistance = d;
        }
      }
      return best;
    }

    function show(i, px, py) {
      current = i;
      if (i < 0) {
        tip.hidden = true;
        tip.replaceChildren();
      } else {
        const title = document.createElement("strong");
        title.textContent = data.title[i];
        const summary = document.createElement("span");
        summary.textContent = data.summary[i];
        tip.replaceChildren(title, document.createElement("br"), summary);
        tip.hidden = false;
        const left = Math.min(Math.max(px + 12, 0), Math.max(size.width - tip.offsetWidth, 0));
        tip.style.left = `${left}px`;
        tip.style.top = `${py + 14}px`;
      }
      draw();
    }

    const open = (i) => {
      location.href = new URL(`${frame.dataset.papers}${data.slug[i]}/`, location.href).href;
    };

    function zoomAt(factor, px, py) {
      const [mx, my] = toMap(px, py);
      view.zoom = Math.min(Math.max(view.zoom * factor, 1), MAX_ZOOM);
      const [ax, ay] = toMap(px, py);
      view.x += mx - ax;
      view.y += my - ay;
      draw();
    }

    const pan = (dx, dy) => {
      const scale = Math.min(size.width, size.height) * view.zoom;
      view.x -= dx / scale;
      view.y -= dy / scale;
      draw();
    };

    // Pointer: pan with one pointer, pinch with two, a tap or click without moving opens.
    const pointers = new Map();
    let moved = false;
    canvas.addEventListener("pointerdown", (event) => {
      canvas.setPointerCapture(event.pointerId);
      pointers.set(event.pointerId, [event.offsetX, event.offsetY]);
      moved = false;
    });
    canvas.addEventListener("pointermove", (event) => {
      const before = pointers.get(event.pointerId);
      if (!before) {
        show(nearest(event.offsetX, event.offsetY, HIT_PX), event.offsetX, event.offsetY);
        return;
      }
      const now = [event.offsetX, event.offsetY];
      if (pointers.size === 1) {
        if (Math.abs(now[0] - before[0]) + Math.abs(now[1] - before[1]) > 0) moved = true;
        pan(now[0] - before[0], now[1] - before[1]);
      } else if (pointers.size === 2) {
        const other = [...pointers.entries()].find(([id]) => id !== event.pointerId)[1];
        const distance = (a) => Math.hypot(a[0] - other[0], a[1] - other[1]);
        zoomAt(distance(now) / Math.max(distance(before), 1), (now[0] + other[0]) / 2, (now[1] + other[1]) / 2);
        moved = true;
      }
      pointers.set(event.pointerId, now);
    });
    const release = (event) => {
      const wasTap = pointers.size === 1 && !moved;
      pointers.delete(event.pointerId);
      if (wasTap && event.type === "pointerup") {
        const i = nearest(event.offsetX, event.offsetY, event.pointerType === "touch" ? HIT_PX * 2 : HIT_PX);
        if (i >= 0) open(i);
      }
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    canvas.addEventListener("pointerleave", () => {
      if (!pointers.size && document.activeElement !== canvas) show(-1, 0, 0);
    });
    canvas.addEventListener("wheel", (event) => {
      event.preventDefault();
      zoomAt(Math.exp(-event.deltaY * 0.002), event.offsetX, event.offsetY);
    }, { passive: false });

    // Keyboard: the paper nearest the cross is the one shown and opened.
    const centre = () => show(nearest(size.width / 2, size.height / 2, Math.hypot(size.width, size.height) / 2), size.width / 2, size.height / 2);
    canvas.addEventListener("focus", centre);
    canvas.addEventListener("blur", () => show(-1, 0, 0));
    canvas.addEventListener("keydown", (event) => {
      const step = Math.min(size.width, size.height) / 8;
      const actions = {
        ArrowLeft: () => pan(step, 0), ArrowRight: () => pan(-step, 0),
        ArrowUp: () => pan(0, step), ArrowDown: () => pan(0, -step),
        "+": () => zoomAt(1.5, size.width / 2, size.height / 2), "=": () => zoomAt(1.5, size.width / 2, size.height / 2),
        "-": () => zoomAt(1 / 1.5, size.width / 2, size.height / 2), 0: reset,
        Enter: () => current >= 0 && open(current),
      };
      const action = actions[event.key];
      if (!action) return;
      event.preventDefault();
      action();
      if (event.key !== "Enter") centre();
    });

    function reset() {
      view = { x: 0.5, y: 0.5, zoom: 1 };
      draw();
    }

    search.addEventListener("input", () => {
      const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      matches = words.length ? [] : null;
      if (words.length) {
        for (let i = 0; i < n; i += 1) if (words.every((w) => lowerTitles[i].includes(w))) matches.push(i);
      }
      found.textContent = matches ? `${matches.length} paper${matches.length === 1 ? "" : "s"} found` : "";
      frame.dataset.matches = matches ? String(matches.length) : "";
      draw();
    });
    frame.querySelector(".topic-map__reset").addEventListener("click", reset);
    for (const box of boxes) {
      box.hidden = false;
      box.addEventListener("change", () => {
        shownArea[Number(box.value)] = box.checked;
        draw();
      });
    }
    tools.hidden = false;
    tip.hidden = true;
    new ResizeObserver(resize).observe(frame);

    // "Where this paper sits": map/?paper=<slug> centres the map on the paper and shows it.
    const wanted = new URLSearchParams(location.search).get("paper");
    const index = wanted ? data.slug.indexOf(wanted) : -1;
    resize();
    if (index >= 0) {
      view = { x: xs[index], y: ys[index], zoom: 4 };
      show(index, size.width / 2, size.height / 2);
    }
    // When the map answered, in ms from the start of the page load (the benchmark reads it).
    performance.mark("topic-map-ready");
  }
})();
