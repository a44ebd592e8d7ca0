/* global document */
// The delivery page's viewer: full screen, arrows, swipe, Esc, each photo's own download.
(function () {
  "use strict";
  var links = Array.prototype.slice.call(document.querySelectorAll(".grid a"));
  if (links.length === 0) return;

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text) node.textContent = text;
    return node;
  }

  var viewer = el("div", {
    class: "viewer",
    role: "dialog",
    "aria-modal": "true",
    "aria-label": "Photo viewer",
    hidden: "",
  });
  var bar = el("div", { class: "viewer-bar" });
  var name = el("span", { class: "viewer-name" });
  var position = el("span", { class: "viewer-position" });
  var download = el("a", { class: "viewer-download", download: "" }, "Download");
  var close = el("button", { type: "button", class: "viewer-close", "aria-label": "Close" }, "✕");
  var stage = el("div", { class: "viewer-stage" });
  var image = el("img", { alt: "" });
  var prev = el("button", { type: "button", class: "nav prev", "aria-label": "Previous photo" }, "‹");
  var next = el("button", { type: "button", class: "nav next", "aria-label": "Next photo" }, "›");
  bar.append(name, position, download, close);
  stage.append(image, prev, next);
  viewer.append(bar, stage);
  document.body.append(viewer);

  var current = -1;
  var opener = null;

  function show(index) {
    current = (index + links.length) % links.length;
    var link = links[current];
    var label = link.querySelector("img").getAttribute("alt") || "";
    image.src = link.href;
    image.alt = label;
    name.textContent = label;
    position.textContent = current + 1 + " / " + links.length;
    download.href = link.getAttribute("data-dl");
  }

  // While the viewer is open the page behind it cannot be reached: not by Tab, not by a screen reader.
  function setBehindInert(inert) {
    Array.prototype.forEach.call(document.body.children, function (child) {
      if (child === viewer) return;
      if (inert) child.setAttribute("inert", "");
      else child.removeAttribute("inert");
    });
  }

  // Tab and Shift+Tab go round the viewer's own controls.
  function keepFocusInside(event) {
    var controls = [download, close, prev, next];
    var at = controls.indexOf(document.activeElement);
    var to = at === -1 ? 0 : (at + (event.shiftKey ? -1 : 1) + controls.length) % controls.length;
    controls[to].focus();
    event.preventDefault();
  }

  function open(index) {
    opener = document.activeElement;
    setBehindInert(true);
    viewer.hidden = false;
    document.body.style.overflow = "hidden";
    show(index);
    close.focus();
  }

  function shut() {
    viewer.hidden = true;
    setBehindInert(false);
    image.removeAttribute("src");
    document.body.style.overflow = "";
    if (opener && opener.focus) opener.focus();
  }

  links.forEach(function (link, index) {
    link.addEventListener("click", function (event) {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
      event.preventDefault();
      open(index);
    });
  });
  prev.addEventListener("click", function () {
    show(current - 1);
  });
  next.addEventListener("click", function () {
    show(current + 1);
  });
  close.addEventListener("click", shut);
  document.addEventListener("keydown", function (event) {
    if (viewer.hidden) return;
    if (event.key === "Tab") return keepFocusInside(event);
    if (event.key === "Escape") shut();
    else if (event.key === "ArrowRight") show(current + 1);
    else if (event.key === "ArrowLeft") show(current - 1);
    else return;
    event.preventDefault();
  });

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
    if (Math.abs(dx) > 40) show(current + (dx < 0 ? 1 : -1));
  });
})();
