/* Keyboard and focus behaviour every screen shares (WCAG 2.2 AA), loaded once by the frame
   (app/ui/components/layout.py). The screens' dialogs are Radix dialogs opened and closed by the
   server's state, with no trigger element of their own, so Radix alone cannot give the focus back:

   - a dialog that opens takes the focus (its first field or button) if it has not taken it already;
   - Escape closes a dialog: Radix asks the state to close it; a dialog whose state did not listen
     is closed with its own Cancel (or Close) button, as if the user had pressed it;
   - a dialog that closes gives the focus back to what had it before (the button that opened it,
     or the row menu's "..." that held the chosen action), else to the screen's heading;
   - after a move to another screen the focus goes to the new screen's heading (its h1), unless the
     screen put it somewhere itself;
   - a control that leaves the page while it has the focus inside a set of tabs (e.g. the record of
     advice's Next / Previous, which change the step) gives the focus to the step now shown (its tab
     panel, scrolled into view with its tabs), instead of letting it fall to the page;
   - a list row that opens its record (.wa-row-open) opens with Enter or Space;
   - the skip link gives the focus to the content. */
(function () {
  "use strict";
  if (window.__waA11y) return;
  window.__waA11y = true;

  var DIALOG = '[role="dialog"], [role="alertdialog"]';
  var POPUP = '[role="menu"], [role="listbox"]';
  var TABBABLE = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled]),' +
    ' button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';
  var opener = null;      // what had the focus outside any dialog or popup menu
  var openDialog = null;  // the dialog open now
  var heading = null;     // the current screen's heading
  var lastFocus = null;   // what had the focus last, anywhere
  var lastTabs = null;    // the set of tabs (Radix's Tabs root) it was in, if any

  function visible(el) {
    return !!(el && el.isConnected && (el.offsetWidth || el.offsetHeight || el.getClientRects().length));
  }

  function nothingFocused() {
    var active = document.activeElement;
    return !active || active === document.body || active === document.documentElement || !active.isConnected;
  }

  function screenHeading() {
    return document.getElementById("page-title") || document.querySelector("main h1, [role=main] h1, h1");
  }

  function focusHeading() {
    var h = screenHeading();
    if (!h) return;
    if (!h.hasAttribute("tabindex")) h.setAttribute("tabindex", "-1");
    h.focus({ preventScroll: true });
  }

  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target instanceof HTMLElement && !target.closest(DIALOG) && !target.closest(POPUP)) opener = target;
    if (target instanceof HTMLElement) {
      lastFocus = target;
      lastTabs = target.closest(DIALOG) ? null : target.closest(".rt-TabsRoot");
    }
  }, true);

  // the focused control left the page inside a set of tabs: the step now shown takes the focus
  function focusLost() {
    var tabs = lastTabs;
    if (!lastFocus || lastFocus.isConnected || !tabs || !tabs.isConnected) return;
    lastFocus = null;
    setTimeout(function () {
      if (!nothingFocused() || document.querySelector(DIALOG)) return;
      var panel = tabs.querySelector('[role="tabpanel"][data-state="active"]');
      if (!panel) return;
      if (!panel.hasAttribute("tabindex")) panel.setAttribute("tabindex", "-1");
      panel.focus({ preventScroll: true });
      tabs.scrollIntoView({ block: "start" });
    }, 60);
  }

  function dialogOpened(dialog) {
    setTimeout(function () {
      if (!dialog.isConnected || dialog.contains(document.activeElement)) return;
      var first = dialog.querySelector("[data-autofocus]") || dialog.querySelector(TABBABLE);
      (first || dialog).focus();
    }, 60);
  }

  function dialogClosed() {
    setTimeout(function () {
      if (document.querySelector(DIALOG)) return;  // another dialog took its place
      if (!nothingFocused()) return;
      if (visible(opener)) opener.focus();
      else focusHeading();
    }, 60);
  }

  function check() {
    var dialog = null;
    var dialogs = document.querySelectorAll(DIALOG);
    if (dialogs.length) dialog = dialogs[dialogs.length - 1];
    if (dialog !== openDialog) {
      var was = openDialog;
      openDialog = dialog;
      if (dialog) dialogOpened(dialog);
      else if (was) dialogClosed();
    }
    if (lastTabs && nothingFocused()) focusLost();
    var h = document.getElementById("page-title");
    if (h && h !== heading) {
      heading = h;
      // a new screen: its heading takes the focus, unless the screen (or a dialog) has put it elsewhere
      setTimeout(function () { if (nothingFocused() && !document.querySelector(DIALOG)) focusHeading(); }, 60);
    }
  }

  new MutationObserver(check).observe(document.documentElement, { childList: true, subtree: true });
  if (document.readyState !== "loading") check();
  else document.addEventListener("DOMContentLoaded", check);

  // the skip link: the content takes the focus (the router would only change the address)
  window.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest(".wa-skip-link") : null;
    if (!link) return;
    var main = document.getElementById((link.hash || "#main").slice(1));  // the router writes "/path/#main"
    if (!main) return;
    event.preventDefault();
    event.stopPropagation();  // before the router sees a link to follow
    main.focus();
    setTimeout(function () { if (document.activeElement !== main) main.focus(); }, 50);
  }, true);

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && openDialog && !document.querySelector(POPUP)) {
      var dialog = openDialog;
      setTimeout(function () {
        if (!dialog.isConnected || dialog !== openDialog) return;  // its state closed it
        var buttons = dialog.querySelectorAll("button");
        for (var i = 0; i < buttons.length; i++) {
          var b = buttons[i];
          var words = (b.textContent || "").trim();
          if (b.hasAttribute("data-dismiss") || words === "Cancel" || words === "Close") {
            if (!b.disabled) b.click();
            return;
          }
        }
      }, 400);
      return;
    }
    if ((event.key === "Enter" || event.key === " ") && event.target instanceof HTMLElement
        && event.target.classList.contains("wa-row-open")) {
      event.preventDefault();
      event.target.click();
    }
  });
})();
