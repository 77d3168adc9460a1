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
  // Only a change of width can change what fits (the page growing taller must not re-measure).
  let width = -1;
  new ResizeObserver(([entry]) => {
    if (entry.contentRect.width !== width) {
      width = entry.contentRect.width;
      fit();
    }
  }).observe(document.documentElement);
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
