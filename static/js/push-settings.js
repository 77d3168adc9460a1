// Push messages on the notifications page (templates/notices/settings.html): marks this browser's entry
// among the player's devices, and subscribes this browser through the site's service worker (/sw.js,
// play/pwa.py, registered by static/js/sw-register.js on every page) with the site's VAPID public key
// (the page's <meta name="vapid-public-key">), then posts its PushSubscription.toJSON() to the server.
import { gettext } from "./i18n.js";

const section = document.getElementById("push");
const button = document.getElementById("push-subscribe");
const status = document.getElementById("push-status");
const key = document.querySelector('meta[name="vapid-public-key"]')?.content;
// The page waits this long for the service worker to be ready before saying it is not.
const READY_WITHIN_MS = 10000;

const say = (text) => {
  status.textContent = text;
  status.hidden = !text;
};

// The applicationServerKey as the Push API takes it: the base64url text's bytes.
const bytesOf = (base64url) => {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
};

const csrfToken = () => section.querySelector("input[name=csrfmiddlewaretoken]")?.value
  ?? document.querySelector("input[name=csrfmiddlewaretoken]")?.value ?? "";

const ready = () => Promise.race([
  navigator.serviceWorker.ready,
  new Promise((resolve) => setTimeout(() => resolve(null), READY_WITHIN_MS)),
]);

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Refused(answer.error || gettext("The site did not accept this device."));
  return answer;
}

// The site's own refusal: a sentence written for the player (notices.views), shown as it is. Anything
// else is the browser's or its push service's error, whose wording is for developers.
class Refused extends Error {}

function markThisDevice(subscription) {
  let known = false;
  for (const item of section.querySelectorAll("li[data-endpoint]")) {
    const mine = subscription !== null && item.dataset.endpoint === subscription.endpoint;
    item.querySelector(".push-this-device").hidden = !mine;
    known ||= mine;
  }
  return known;
}

async function subscribe(registration, existing) {
  button.disabled = true;
  say(gettext("Asking this browser for push messages…"));
  try {
    const subscription = existing
      ?? await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytesOf(key) });
    await post(section.dataset.subscribeUrl, subscription.toJSON());
    location.reload();
  } catch (error) {
    button.disabled = false;
    if (typeof Notification !== "undefined" && Notification.permission === "denied") {
      say(gettext("This browser blocks notifications from DiceHall: allow them in its site settings."));
    } else {
      say(
        error instanceof Refused
          ? gettext("Push messages could not be turned on: ") + error.message
          : gettext("This browser could not reach its push service, so push messages are not on. Try again later, or in another browser."),
      );
    }
  }
}

async function start() {
  if (!key) return;
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(gettext("This browser cannot receive push messages."));
    return;
  }
  const registration = await ready();
  if (registration === null) {
    say(gettext("Push messages are not available on this page yet: reload it."));
    return;
  }
  const subscription = await registration.pushManager.getSubscription();
  if (!markThisDevice(subscription)) {
    // Not subscribed, or subscribed before and forgotten by the site: the player asks (a click).
    button.hidden = false;
    button.addEventListener("click", () => subscribe(registration, subscription));
    return;
  }
  // This device's remove button ends the browser's subscription first, then sends the form.
  const mine = [...section.querySelectorAll("li[data-endpoint]")].find((li) => li.dataset.endpoint === subscription.endpoint);
  const form = mine.querySelector("form");
  form.addEventListener("submit", async (event) => {
    if (event.submitter?.value !== "remove") return;
    event.preventDefault();
    await subscription.unsubscribe().catch(() => {});
    const remove = document.createElement("input");
    remove.type = "hidden";
    remove.name = "action";
    remove.value = "remove";
    form.append(remove);
    form.submit();
  });
}

start();
