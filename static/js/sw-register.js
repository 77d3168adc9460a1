// The service worker (play/pwa.py): the app installable, its static files and offline page kept, push
// messages shown. Registered once the page has loaded, so that it never competes with the page itself.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const url = document.querySelector('meta[name="service-worker"]')?.content;
    if (url) navigator.serviceWorker.register(url).catch(() => {});
  });
}
