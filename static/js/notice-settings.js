// The notifications page (templates/notices/settings.html): a browser notification needs the browser's
// permission, asked for when the box is ticked.
import { gettext } from "./i18n.js";

const box = document.getElementById("id_browser");
const note = document.getElementById("browser-permission");
const say = (text) => {
  note.textContent = text;
  note.hidden = !text;
};
const explain = () => {
  if (!("Notification" in window)) say(gettext("This browser cannot show notifications."));
  else if (box.checked && Notification.permission === "denied") {
    say(gettext("This browser blocks notifications from DiceHall: allow them in its site settings."));
  } else say("");
};
box.addEventListener("change", async () => {
  if (box.checked && "Notification" in window && Notification.permission === "default") await Notification.requestPermission();
  explain();
});
explain();
