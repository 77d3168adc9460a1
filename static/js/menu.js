// The phone header's menu button (templates/base.html). site.css shows it, and folds the links while
// it is not expanded, only on an <html class="js">: without scripts the links stay open.
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
