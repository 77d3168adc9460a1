// Marks the page as scripted (<html class="js">) before its first paint, so that a phone never shows the
// open menu folding away (static/js/menu.js, site.css). A file of its own, loaded without defer from the
// head, because the Content-Security-Policy (script-src 'self') runs no inline script.
document.documentElement.classList.add("js");
