/* global document, window, MutationObserver */
// Favourites on the delivery page: a heart on every thumbnail and in the viewer, 'Favourites (n)'
// showing only them, a one-line comment per favourite in the viewer, and 'Send my selection'.
// The first heart asks once for a name and e-mail (kept by the server in an HttpOnly cookie for
// this link). The list lives on the server (`favourites`, JSON, relative to the page's
// `/d/<token>/`), so it works whichever part of the grid is drawn. Runs after delivery.js.
(function () {
  "use strict";
  var grid = document.querySelector(".grid");
  if (!grid || !window.fetch) return;
  var viewer = document.querySelector(".viewer");
  var studioName = document.querySelector(".studio span");
  var studio = (studioName && studioName.textContent) || window.photodropTexts.t("theStudio");
  var sizes = (grid.querySelector("img") || { getAttribute: function () {} }).getAttribute("sizes") || "";
  var state = { limit: null, visitor: null, sent: false, chosen: {}, count: 0 };
  var shownInViewer = 0;

  /** A favourites text (`errors.generic`) in the page's language (delivery.js reads them: photodropTexts). */
  function t(path, vars) {
    return window.photodropTexts.t("favourites." + path, vars);
  }

  /** What went wrong, in the page's language: by the answer's status (the server's own messages are English). */
  function problemOf(status, data, path) {
    var fields = (data && data.errors) || {};
    if (status === 400) {
      if (fields.name) return t(nameInput.value.trim() ? "errors.plainText" : "errors.nameRequired");
      if (fields.email) return t(emailInput.value.trim() ? "errors.emailInvalid" : "errors.emailRequired");
      if (fields.comment && commentInput.value.trim().length > 200) return t("errors.commentTooLong", { count: 200 });
      return t("errors.plainText");
    }
    if (status === 401) return t("errors.reloadPasscode");
    if (status === 403) return t("errors.visitorRequired");
    if (status === 404) return t("errors.photoNotFound");
    if (status === 409 && path === "/submit") return t("chooseFirst");
    if (status === 409) return state.limit ? t("limitReached", { count: state.limit }) : t("chooseFirst");
    if (status === 410) return t("errors.expired");
    if (status === 429) return t("errors.tooMany");
    if (status === 503) return t("errors.updating");
    return t("errors.generic");
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var key in attrs) node.setAttribute(key, attrs[key]);
    if (text) node.textContent = text;
    return node;
  }

  var SVG = "http://www.w3.org/2000/svg";
  function heartIcon() {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var path = document.createElementNS(SVG, "path");
    path.setAttribute(
      "d",
      "M12 21s-7.5-4.6-9.6-9.2C.9 8.4 3 4.5 6.8 4.5c2.1 0 3.6 1.1 5.2 3 1.6-1.9 3.1-3 5.2-3 3.8 0 5.9 3.9 4.4 7.3C19.5 16.4 12 21 12 21z",
    );
    svg.append(path);
    return svg;
  }

  /** The favourites routes: JSON in and out; a failure carries the server's message. */
  function call(method, path, body) {
    var init = { method: method, credentials: "same-origin", headers: {} };
    if (body) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch("favourites" + path, init).then(function (res) {
      return res
        .json()
        .catch(function () {
          return {};
        })
        .then(function (data) {
          if (res.ok) return data;
          var error = new Error(problemOf(res.status, data, path));
          error.status = res.status;
          throw error;
        });
    });
  }

  // The bar above the grid: the view switch, the limit, sending, and what just happened.
  var bar = el("div", { class: "fav-bar", role: "region", "aria-label": t("region") });
  var toggle = el("button", { type: "button", class: "button secondary fav-toggle", "aria-pressed": "false" });
  var limitNote = el("span", { class: "fav-limit" });
  var send = el("button", { type: "button", class: "button fav-send" }, t("send", { studio: studio }));
  var status = el("p", { class: "fav-status", role: "status" });
  bar.append(toggle, limitNote, send, status);
  grid.before(bar);
  var favGrid = el("ul", { class: "grid fav-grid", hidden: "" });
  var empty = el("p", { class: "fav-empty", hidden: "" }, t("empty"));
  bar.after(empty, favGrid);

  // One notice, where the visitor is: in the open viewer, else above the grid.
  function say(text) {
    var inViewer = Boolean(viewer && !viewer.hidden);
    status.textContent = inViewer ? "" : text;
    viewerStatus.textContent = inViewer ? text : "";
  }

  function refreshBar() {
    toggle.textContent = t("toggle", { count: state.count });
    limitNote.textContent = state.limit ? t("limit", { count: state.limit }) : "";
    // Offered once something is chosen.
    send.hidden = state.count === 0;
    send.disabled = state.sent;
    send.textContent = state.sent ? t("sent") : t("send", { studio: studio });
    Array.prototype.forEach.call(document.querySelectorAll(".fav-heart"), function (heart) {
      heart.setAttribute("aria-pressed", String(Boolean(state.chosen[heart.getAttribute("data-n")])));
    });
    refreshViewer();
  }

  function heartButton(n, name) {
    var heart = el("button", {
      type: "button",
      class: "fav-heart",
      "data-n": String(n),
      "aria-label": t("heart", { name: name }),
      "aria-pressed": String(Boolean(state.chosen[n])),
    });
    heart.append(heartIcon());
    return heart;
  }

  /** A heart on a grid item the server or delivery.js drew. */
  function addHeart(item) {
    if (item.querySelector(".fav-heart")) return;
    var link = item.querySelector("a");
    var img = item.querySelector("img");
    if (!link || !img) return;
    item.append(heartButton(Number(link.getAttribute("href").slice(2)), img.getAttribute("alt") || ""));
  }
  Array.prototype.forEach.call(grid.children, addHeart);
  new MutationObserver(function (changes) {
    changes.forEach(function (change) {
      Array.prototype.forEach.call(change.addedNodes, function (node) {
        if (node.nodeType === 1) addHeart(node);
      });
    });
  }).observe(grid, { childList: true });

  // Who is choosing: asked once, before the first favourite.
  var dialog = el("dialog", { class: "fav-dialog", "aria-labelledby": "fav-who" });
  var form = el("form", { novalidate: "" });
  var nameInput = el("input", { id: "fav-name", name: "name", required: "", maxlength: "100", autocomplete: "name" });
  var emailInput = el("input", {
    id: "fav-email",
    name: "email",
    type: "email",
    required: "",
    maxlength: "320",
    autocomplete: "email",
  });
  var formError = el("p", { class: "error", role: "alert" });
  var cancel = el("button", { type: "button", class: "button secondary" }, t("cancel"));
  var save = el("button", { type: "submit", class: "button" }, t("continue"));
  var actions = el("div", { class: "fav-actions" });
  actions.append(cancel, save);
  form.append(
    el("h2", { id: "fav-who" }, t("whoTitle")),
    el("p", {}, t("whoText", { studio: studio })),
    el("label", { for: "fav-name" }, t("name")),
    nameInput,
    el("label", { for: "fav-email" }, t("email")),
    emailInput,
    formError,
    actions,
  );
  dialog.append(form);
  document.body.append(dialog);
  var afterWho = null;

  function askWho(then) {
    afterWho = then;
    formError.textContent = "";
    // The viewer makes everything else inert while it is open; the question must stay usable.
    dialog.removeAttribute("inert");
    dialog.showModal();
    nameInput.focus();
  }
  // Its keys are its own: Esc closes the question, not the viewer behind it.
  dialog.addEventListener("keydown", function (event) {
    event.stopPropagation();
  });
  cancel.addEventListener("click", function () {
    afterWho = null;
    dialog.close();
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    formError.textContent = "";
    save.disabled = true;
    call("POST", "/visitor", { name: nameInput.value, email: emailInput.value })
      .then(function (data) {
        state.visitor = data.visitor;
        dialog.close();
        var then = afterWho;
        afterWho = null;
        if (then) then();
      })
      .catch(function (error) {
        formError.textContent = error.message;
      })
      .finally(function () {
        save.disabled = false;
      });
  });

  function changed(data) {
    state.count = data.count;
    state.sent = data.sent;
    refreshBar();
  }

  function toggleFavourite(n) {
    if (!state.visitor)
      return askWho(function () {
        toggleFavourite(n);
      });
    if (state.chosen[n]) {
      return call("DELETE", "/" + n)
        .then(function (data) {
          delete state.chosen[n];
          say("");
          changed(data);
        })
        .catch(function (error) {
          say(error.message);
        });
    }
    if (state.limit && state.count >= state.limit) return say(t("limitReached", { count: state.limit }));
    return call("PUT", "/" + n, {})
      .then(function (data) {
        state.chosen[n] = { comment: data.comment };
        say("");
        changed(data);
      })
      .catch(function (error) {
        if (error.status === 403) {
          // The server no longer knows this browser (its cookie ended): ask again.
          state.visitor = null;
          return toggleFavourite(n);
        }
        say(error.message);
      });
  }

  document.addEventListener("click", function (event) {
    var heart = event.target.closest(".fav-heart");
    if (heart) toggleFavourite(Number(heart.getAttribute("data-n")));
  });

  send.addEventListener("click", function () {
    if (!state.visitor) return say(t("chooseFirst"));
    call("POST", "/submit")
      .then(function (data) {
        changed(data);
        say(t("sentStatus", { studio: studio }));
      })
      .catch(function (error) {
        say(error.message);
      });
  });

  // 'Favourites (n)': only the chosen photos, drawn from the server's list (any part of the grid).
  var partsNav = document.querySelector(".parts");
  var gridEnd = document.querySelector(".grid-end");
  function favouriteItem(f) {
    var item = el("li", f.ratio ? { style: "--r:" + f.ratio } : {});
    // A view-only link serves no original: its photos lead to their previews, as in the grid.
    var viewOnly = !grid.hasAttribute("data-downloads");
    var link = el("a", { href: (viewOnly ? "v/" : "p/") + f.n });
    var srcset = "t/" + f.n + " 400w, v/" + f.n + " 2048w";
    link.append(el("img", { src: "t/" + f.n, srcset: srcset, sizes: sizes, alt: f.name, loading: "lazy" }));
    item.append(link, heartButton(f.n, f.name));
    if (f.comment) item.append(el("p", { class: "fav-note" }, f.comment));
    return item;
  }
  function showFavourites(on) {
    toggle.setAttribute("aria-pressed", String(on));
    grid.hidden = on;
    // Hidden, the end of the grid is never in view: no further parts are loaded meanwhile.
    if (gridEnd) gridEnd.hidden = on;
    if (partsNav) partsNav.hidden = on;
    favGrid.hidden = !on;
    empty.hidden = true;
    if (!on) return;
    load().then(function (list) {
      favGrid.replaceChildren.apply(favGrid, list.favourites.map(favouriteItem));
      empty.hidden = list.favourites.length > 0;
    });
  }
  toggle.addEventListener("click", function () {
    showFavourites(toggle.getAttribute("aria-pressed") !== "true");
  });

  // In the viewer: a heart beside the download, and the comment under the photo.
  var viewerHeart = heartButton(0, "");
  viewerHeart.classList.add("viewer-heart");
  viewerHeart.setAttribute("aria-label", t("heartInViewer"));
  var commentForm = el("form", { class: "fav-comment", hidden: "" });
  var commentInput = el("input", { id: "fav-comment", maxlength: "200", autocomplete: "off" });
  var commentSave = el("button", { type: "submit" }, t("saveComment"));
  var viewerStatus = el("p", { class: "fav-viewer-status", role: "status" });
  commentForm.append(el("label", { for: "fav-comment" }, t("addComment")), commentInput, commentSave);
  if (viewer) {
    // Beside the first download, or before 'Close' on a view-only link, which has none.
    (viewer.querySelector(".viewer-download") || viewer.querySelector(".viewer-close")).before(viewerHeart);
    viewer.append(viewerStatus, commentForm);
    viewer.addEventListener("photoshown", function (event) {
      shownInViewer = event.detail;
      viewerStatus.textContent = "";
      refreshViewer();
    });
  }
  function refreshViewer() {
    if (!viewer || !shownInViewer) return;
    var chosen = state.chosen[shownInViewer];
    viewerHeart.setAttribute("data-n", String(shownInViewer));
    viewerHeart.setAttribute("aria-pressed", String(Boolean(chosen)));
    commentForm.hidden = !chosen;
    if (chosen && document.activeElement !== commentInput) commentInput.value = chosen.comment || "";
  }
  commentForm.addEventListener("submit", function (event) {
    event.preventDefault();
    var n = shownInViewer;
    call("PUT", "/" + n, { comment: commentInput.value })
      .then(function (data) {
        state.chosen[n] = { comment: data.comment };
        changed(data);
        say(data.comment ? t("commentSaved") : t("commentRemoved"));
      })
      .catch(function (error) {
        say(error.message);
      });
  });

  function load() {
    return call("GET", "").then(function (list) {
      state.limit = list.limit;
      state.visitor = list.visitor;
      state.sent = list.sent;
      state.count = list.favourites.length;
      state.chosen = {};
      list.favourites.forEach(function (f) {
        state.chosen[f.n] = { comment: f.comment };
      });
      refreshBar();
      return list;
    });
  }
  refreshBar();
  load().catch(function (error) {
    say(error.message);
  });
})();
