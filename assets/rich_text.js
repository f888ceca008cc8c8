// The commentary editor (app/ui/components/rich_text.py): an editable area with a toolbar. The
// toolbar's buttons act on the text selected in their editor, whether reached with the mouse (the
// editor keeps the focus: a press on a button does not take it) or with Tab (the editor's last
// selection is put back first). Ctrl+B, Ctrl+I and Ctrl+U are the browser's own; Ctrl+Shift+7 and
// Ctrl+Shift+8 make a numbered and a bulleted list. What is typed is sanitised by the server.
(function () {
  if (window.waRich) return;
  var ranges = {};

  function hostOf(node) {
    var el = node && (node.nodeType === 1 ? node : node.parentElement);
    return el ? el.closest("[data-wa-rich]") : null;
  }

  document.addEventListener("selectionchange", function () {
    var sel = document.getSelection();
    if (!sel || !sel.rangeCount) return;
    var range = sel.getRangeAt(0);
    var host = hostOf(range.commonAncestorContainer);
    if (host && host.id) ranges[host.id] = range.cloneRange();
  });

  document.addEventListener("mousedown", function (event) {
    if (event.target instanceof Element && event.target.closest("[data-wa-rich-tool]")) event.preventDefault();
  }, true);

  function focus(id) {
    var host = document.getElementById(id);
    if (!host) return null;
    if (document.activeElement !== host) {
      host.focus();
      var range = ranges[id];
      if (range && host.contains(range.commonAncestorContainer)) {
        var sel = document.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
      }
    }
    return host;
  }

  function exec(id, command) {
    var host = focus(id);
    if (!host) return;
    if (command === "createLink") {
      var address = window.prompt("Link address (https://...)", "https://");
      if (!address || address === "https://") return;
      focus(id);
      document.execCommand("createLink", false, address);
    } else {
      document.execCommand(command, false, null);
    }
  }

  document.addEventListener("keydown", function (event) {
    var host = event.target instanceof Element ? event.target.closest("[data-wa-rich]") : null;
    if (!host || !(event.ctrlKey || event.metaKey) || !event.shiftKey) return;
    var command = event.code === "Digit7" ? "insertOrderedList" : event.code === "Digit8" ? "insertUnorderedList" : null;
    if (command) {
      event.preventDefault();
      document.execCommand(command, false, null);
    }
  });

  window.waRich = {
    exec: exec,
    html: function (id) {
      var host = document.getElementById(id);
      return host ? host.innerHTML : "";
    },
  };
})();
