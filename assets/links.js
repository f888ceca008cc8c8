// Links are links. A link to a screen of the app goes there in the app on a plain click (its
// handler asks first when a form has unsaved changes); a click that asks for a new tab or window
// (Ctrl, Cmd, Shift, a middle click) is left to the browser: the app's handlers and a clickable row
// under the link never see it, so the browser opens the link's own address.
(function () {
  if (window.__waLinks) return;
  window.__waLinks = true;

  function ownLink(event) {
    var link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link) return null;
    var href = link.getAttribute("href") || "";
    return href.charAt(0) === "/" && href.charAt(1) !== "/" ? link : null;
  }

  function forTheBrowser(event) {
    var elsewhere = event.button === 1 || event.ctrlKey || event.metaKey || event.shiftKey;
    if (elsewhere && ownLink(event)) event.stopPropagation();
  }

  window.addEventListener("click", forTheBrowser, true);
  window.addEventListener("auxclick", forTheBrowser, true);
})();

// Going back. Every address the app shows is remembered for its screen in the tab's session (a
// list's address carries its filters, page and sort), so that a screen's own Back or Cancel, or a
// breadcrumb, returns to the screen as it was left: waBack(path) is the address last shown at
// `path` (or `path` itself).
(function () {
  if (window.waBack) return;
  var PREFIX = "wa-address:";
  // parameters that ask a screen to act once on opening (the holdings menu's "?calculate=1"): going
  // back returns to the screen, never to the action
  var ONE_SHOT = ["calculate"];

  function remember() {
    try {
      var params = new URLSearchParams(window.location.search);
      ONE_SHOT.forEach(function (name) { params.delete(name); });
      var query = params.toString();
      sessionStorage.setItem(PREFIX + window.location.pathname,
                             window.location.pathname + (query ? "?" + query : ""));
    } catch (e) { /* storage refused: Back goes to the screen's plain address */ }
  }

  ["pushState", "replaceState"].forEach(function (name) {
    var original = window.history[name];
    window.history[name] = function () {
      var out = original.apply(this, arguments);
      remember();
      return out;
    };
  });
  window.addEventListener("popstate", remember);
  remember();

  window.waBack = function (path) {
    if (typeof path !== "string" || path.indexOf("?") >= 0) return path;
    var bare = path.length > 1 ? path.replace(/\/$/, "") : path;
    try {
      var shown = sessionStorage.getItem(PREFIX + bare) || sessionStorage.getItem(PREFIX + bare + "/");
      if (shown && shown.split("?")[0].replace(/\/$/, "") === bare) return shown;
    } catch (e) { /* as above */ }
    return path;
  };
})();
