// The phone header's menu button (templates/base.html). site.css shows it, and folds the links while
// it is not expanded, only on an <html class="js">: without scripts the links stay open.
// On a wider screen the header is one row when everything fits; when it does not (a long name, German's
// longer words, a narrower window) the games' links go to a second row of their own, so that the
// player's links and the notifications' bell stay together on the first instead of wrapping anywhere.
(function () {
  const nav = document.querySelector(".nav");
  const brand = nav && nav.querySelector(".brand");
  const last = nav && (nav.querySelector(".nav-notices") || nav.querySelector(".nav-user"));
  if (!brand || !last) return;
  const fit = () => {
    nav.classList.remove("two-rows");
    const folded = getComputedStyle(nav.querySelector(".menu-button")).display !== "none";
    if (!folded && last.getBoundingClientRect().top >= brand.getBoundingClientRect().bottom) nav.classList.add("two-rows");
  };
  // Only a change of width can change what fits (the page growing taller must not re-measure): the
  // window's, or the bell's, which widens when its count is drawn after the page loads (at
  // 1280 px the bell then went alone to a second row).
  const widths = new Map();
  const observer = new ResizeObserver((entries) => {
    let changed = false;
    for (const entry of entries) {
      if (widths.get(entry.target) !== entry.contentRect.width) {
        widths.set(entry.target, entry.contentRect.width);
        changed = true;
      }
    }
    if (changed) fit();
  });
  observer.observe(document.documentElement);
  observer.observe(last);
})();
(function () {
  const button = document.querySelector(".menu-button");
  const menu = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!menu) return;
  const setOpen = (open) => button.setAttribute("aria-expanded", String(open));
  button.addEventListener("click", () => setOpen(button.getAttribute("aria-expanded") !== "true"));
  // Escape closes an open menu and gives the focus back to its button.
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      setOpen(false);
      button.focus();
    }
  });
})();
