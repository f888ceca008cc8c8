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
