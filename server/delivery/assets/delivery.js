/* global document, window, IntersectionObserver */
// The delivery page's script: further parts of the grid as the client scrolls, and the full-screen
// viewer (arrows, swipe, Esc, each photo's own download) over every photo of the delivery, drawn
// or not. The viewer shows each photo's screen-sized preview (`v/<n>`); its download is the
// original. Photos are named by their position (1-based); names come with the page or with the
// parts asked for at `photos?from=<position>`.

// The page's texts (#pd-texts, JSON, in the page's language), for this script and favourites.js:
// `photodropTexts.t("viewer.next")`, `{{name}}` filled in; a numeric `count` picks the plural form
// as i18next names it (`_one`, `_few`, `_other`) and is written as the language writes numbers.
window.photodropTexts = (function () {
  "use strict";
  var texts = readTexts();
  var lang = texts.lang || document.documentElement.lang || "en";
  var plurals = window.Intl && Intl.PluralRules ? new Intl.PluralRules(lang) : null;
  var numbers = window.Intl && lang !== "en" ? new Intl.NumberFormat(lang) : null;

  function readTexts() {
    var node = document.getElementById("pd-texts");
    try {
      return (node && JSON.parse(node.textContent)) || {};
    } catch {
      return {};
    }
  }

  function number(n) {
    return numbers ? numbers.format(n) : String(n);
  }

  function t(path, vars) {
    var parts = path.split(".");
    var last = parts.pop();
    var group = parts.reduce(function (at, part) {
      return (at && at[part]) || {};
    }, texts);
    var text = group[last];
    if (vars && typeof vars.count === "number") {
      // A text with plural forms picks one; one without (`Favourites ({{count}})`) is the same for every count.
      text = group[last + "_" + (plurals ? plurals.select(vars.count) : "other")] || group[last + "_other"] || text;
      vars = Object.assign({}, vars, { count: number(vars.count) });
    }
    return String(text === undefined ? path : text).replace(/\{\{(\w+)\}\}/g, function (all, name) {
      return vars && vars[name] !== undefined ? vars[name] : all;
    });
  }

  return { t: t, number: number };
})();

(function () {
  "use strict";
  var grid = document.querySelector(".grid");
  if (!grid) return;
  var total = Number(grid.getAttribute("data-total"));
  var perPart = Number(grid.getAttribute("data-part"));
  var names = {};
  var ratios = {};
  var nextToDraw = Number(grid.getAttribute("data-from"));
  if (!total || !perPart || !nextToDraw) return;
  // The cells' widths, as the server wrote them for the photos it drew.
  var sizes = grid.querySelector("img").getAttribute("sizes") || "";
  // What the link lets the client download: "original", "original web", or nothing (view-only).
  var offered = (grid.getAttribute("data-downloads") || "").split(" ");
  var originals = offered.indexOf("original") !== -1;
  var webSize = offered.indexOf("web") !== -1;
  // The page's texts in its language; right to left mirrors the arrows and swipes.
  var t = window.photodropTexts.t;
  var number = window.photodropTexts.number;
  var rtl = document.documentElement.dir === "rtl";

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text) node.textContent = text;
    return node;
  }

  /** The same markup as the server's: the grid works the same whichever drew an item. */
  function photoItem(n, name) {
    var item = el("li", ratios[n] ? { style: "--r:" + ratios[n] } : {});
    var link = el("a", originals ? { href: "p/" + n, "data-dl": "p/" + n + "/download" } : { href: "v/" + n });
    var srcset = "t/" + n + " 400w, v/" + n + " 2048w";
    link.append(
      el("img", { src: "t/" + n, srcset: srcset, sizes: sizes, alt: name, loading: "lazy", decoding: "async" }),
    );
    item.append(link);
    return item;
  }

  Array.prototype.forEach.call(grid.querySelectorAll("img"), function (img) {
    names[nextToDraw++] = img.getAttribute("alt") || "";
  });

  var parts = {};
  /** The part holding photo `n`, asked for once; its names are kept. */
  function partOf(n) {
    var from = Math.floor((n - 1) / perPart) * perPart + 1;
    if (!parts[from]) {
      parts[from] = fetch("photos?from=" + from, { credentials: "same-origin" })
        .then(function (res) {
          if (!res.ok) throw new Error("photos?from=" + from + " answered " + res.status);
          return res.json();
        })
        .then(function (part) {
          part.photos.forEach(function (photo, i) {
            names[part.from + i] = photo.name;
            ratios[part.from + i] = Number(photo.ratio) || 0;
          });
          return part;
        });
      parts[from].catch(function () {
        delete parts[from];
      });
    }
    return parts[from];
  }

  // Further parts as the client nears the end of the grid; the "More photos" link is for browsers without this.
  var more = document.querySelector(".parts .more");
  if (more && "IntersectionObserver" in window) {
    var drawing = false;
    var end = el("div", { class: "grid-end", "aria-hidden": "true" });
    grid.after(end);
    more.hidden = true;
    var watcher = new IntersectionObserver(
      function (entries) {
        var near = entries.some(function (entry) {
          return entry.isIntersecting;
        });
        if (!near || drawing || nextToDraw > total) return;
        drawing = true;
        partOf(nextToDraw)
          .then(function () {
            var fragment = document.createDocumentFragment();
            for (var n = nextToDraw; n <= total && names[n] !== undefined; n++) fragment.append(photoItem(n, names[n]));
            nextToDraw = n;
            grid.append(fragment);
            if (nextToDraw > total) watcher.disconnect();
          })
          .finally(function () {
            drawing = false;
            // Still in view (a tall screen, a fast scroll): the observer says nothing new, so look again.
            watcher.unobserve(end);
            if (nextToDraw <= total) watcher.observe(end);
          });
      },
      { rootMargin: "1200px 0px" },
    );
    watcher.observe(end);
  }

  var viewer = el("div", {
    class: "viewer",
    role: "dialog",
    "aria-modal": "true",
    "aria-label": t("viewer.label"),
    hidden: "",
  });
  var bar = el("div", { class: "viewer-bar" });
  var name = el("span", { class: "viewer-name" });
  var position = el("span", { class: "viewer-position" });
  var downloads = viewerDownloads();
  var close = el("button", { type: "button", class: "viewer-close", "aria-label": t("viewer.close") }, "✕");
  var stage = el("div", { class: "viewer-stage" });
  var image = el("img", { alt: "" });
  // Previous sits at the start of the line: the left in English, the right in Arabic; its arrow points there.
  var prev = el("button", { type: "button", class: "nav prev", "aria-label": t("viewer.previous") }, rtl ? "›" : "‹");
  var next = el("button", { type: "button", class: "nav next", "aria-label": t("viewer.next") }, rtl ? "‹" : "›");
  // The downloads (and favourites.js's heart, put before the first) keep together: on a phone they
  // share the second line of the bar, a long label wrapping inside its button.
  var actions = downloads.links.length ? [el("span", { class: "viewer-actions" })] : [];
  if (actions.length) actions[0].append.apply(actions[0], downloads.links);
  bar.append.apply(bar, [name, position].concat(actions, [close]));
  stage.append(image, prev, next);
  viewer.append(bar, stage);
  document.body.append(viewer);

  var current = 0;
  var opener = null;
  // The photos the arrows go through when the viewer was opened from another grid than the page's
  // own (favourites.js's 'Favourites'): only those, in that grid's order; null for every photo.
  var sequence = null;

  function label(n) {
    image.alt = names[n];
    name.textContent = names[n];
  }

  function show(n) {
    current = ((((n - 1) % total) + total) % total) + 1;
    image.src = "v/" + current;
    position.textContent = sequence
      ? t("viewer.position", { n: number(sequence.indexOf(current) + 1), total: number(sequence.length) })
      : t("viewer.position", { n: number(current), total: number(total) });
    downloads.point(current);
    // For favourites.js: which photo the viewer shows now.
    viewer.dispatchEvent(new CustomEvent("photoshown", { detail: current }));
    if (names[current] !== undefined) return label(current);
    image.alt = "";
    name.textContent = "";
    var asked = current;
    partOf(asked).then(function () {
      if (current === asked) label(asked);
    });
  }

  // While the viewer is open the page behind it cannot be reached: not by Tab, not by a screen reader.
  function setBehindInert(inert) {
    Array.prototype.forEach.call(document.body.children, function (child) {
      if (child === viewer) return;
      if (inert) child.setAttribute("inert", "");
      else child.removeAttribute("inert");
    });
  }

  // Tab and Shift+Tab go round the viewer's own controls (favourites.js adds some).
  function keepFocusInside(event) {
    var controls = Array.prototype.filter.call(viewer.querySelectorAll("a[href], button, input"), function (c) {
      return !c.closest("[hidden]") && c.offsetParent !== null;
    });
    var at = controls.indexOf(document.activeElement);
    var to = at === -1 ? 0 : (at + (event.shiftKey ? -1 : 1) + controls.length) % controls.length;
    controls[to].focus();
    event.preventDefault();
  }

  function step(by) {
    if (!sequence) return show(current + by);
    var at = sequence.indexOf(current) + by;
    show(sequence[(at + sequence.length) % sequence.length]);
  }

  function open(n) {
    opener = document.activeElement;
    setBehindInert(true);
    viewer.hidden = false;
    document.body.style.overflow = "hidden";
    show(n);
    close.focus();
  }

  function shut() {
    viewer.hidden = true;
    setBehindInert(false);
    image.removeAttribute("src");
    document.body.style.overflow = "";
    if (opener && opener.focus) opener.focus();
  }

  // Any grid's photo links (favourites.js draws a grid of its own).
  document.addEventListener("click", function (event) {
    var link = event.target.closest(".grid a");
    if (!link || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    var from = link.closest(".grid");
    sequence =
      from === grid
        ? null
        : Array.prototype.map.call(from.querySelectorAll("a[href]"), function (a) {
            return Number(a.getAttribute("href").slice(2));
          });
    open(Number(link.getAttribute("href").slice(2)));
  });
  prev.addEventListener("click", function () {
    step(-1);
  });
  next.addEventListener("click", function () {
    step(1);
  });
  close.addEventListener("click", shut);
  document.addEventListener("keydown", function (event) {
    if (viewer.hidden) return;
    if (event.key === "Tab") return keepFocusInside(event);
    // Typing in a field (a comment) moves its caret, not the photos.
    if (event.target.tagName === "INPUT" && event.key !== "Escape") return;
    if (event.key === "Escape") shut();
    // The arrow towards the end of the line goes on: right in English, left in Arabic.
    else if (event.key === "ArrowRight") step(rtl ? -1 : 1);
    else if (event.key === "ArrowLeft") step(rtl ? 1 : -1);
    else return;
    event.preventDefault();
  });

  /** The viewer's download links, as the link offers them: the original, and the web size. */
  function viewerDownloads() {
    var links = [];
    var original = originals && el("a", { class: "viewer-download", download: "" }, t("viewer.download"));
    var web = webSize && el("a", { class: "viewer-download", download: "" }, t("viewer.downloadWebSize"));
    if (original) links.push(original);
    if (web) links.push(web);
    return {
      links: links,
      point: function (n) {
        if (original) original.href = "p/" + n + "/download";
        if (web) web.href = "v/" + n + "/download";
      },
    };
  }

  var touchX = null;
  stage.addEventListener(
    "touchstart",
    function (event) {
      touchX = event.changedTouches[0].clientX;
    },
    { passive: true },
  );
  stage.addEventListener("touchend", function (event) {
    if (touchX === null) return;
    var dx = event.changedTouches[0].clientX - touchX;
    touchX = null;
    // Swiping towards the start of the line brings the next photo: leftwards in English, rightwards in Arabic.
    if (Math.abs(dx) > 40) step(dx < 0 !== rtl ? 1 : -1);
  });
})();
