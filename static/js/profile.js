// Draws the profile's accuracy chart (Chart.js from npm), as the statistics page draws its rating over
// time (static/js/stats.js): the coach's accuracy of each reviewed game, oldest on the left.
(function () {
  const source = document.getElementById("accuracy-data");
  if (!source || !window.Chart) return;
  const gettext = window.gettext || ((text) => text);
  // The site's colours, light or dark as the page is (static/css/site.css).
  const css = getComputedStyle(document.documentElement);
  const colour = (name) => css.getPropertyValue(name).trim();
  const accent = colour("--accent");
  const language = document.documentElement.lang || "en";
  // Days as the page's dates read: 2026-12-01 in English, 01.12.2026 in German (UTC, as stats.js).
  const numeric = { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" };
  const day = (at) => (!at ? "" : language.startsWith("en") ? at.slice(0, 10) : new Date(at).toLocaleDateString(language, numeric));
  const percent = (n) => (language.startsWith("en") ? n.toFixed(1) : n.toLocaleString(language, { minimumFractionDigits: 1, maximumFractionDigits: 1 })) + "%";
  window.Chart.defaults.locale = language;
  window.Chart.defaults.color = colour("--muted");
  window.Chart.defaults.borderColor = colour("--line");
  const points = JSON.parse(source.textContent).points;
  new window.Chart(document.getElementById("accuracy-chart"), {
    type: "line",
    data: {
      labels: points.map((p) => day(p.at)),
      datasets: [{
        label: gettext("Accuracy"),
        data: points.map((p) => p.accuracy),
        borderColor: accent,
        backgroundColor: accent,
        tension: 0.2,
      }],
    },
    options: {
      maintainAspectRatio: false, // the box's height (static/css/site.css)
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            // "Farkle #12: 84.5%": which game each point is.
            title: (items) => `${points[items[0].dataIndex].name} #${points[items[0].dataIndex].game}`,
            label: (item) => percent(item.parsed.y),
          },
        },
      },
      scales: { y: { min: 0, max: 100, ticks: { callback: (value) => `${value}%` } } },
    },
  });
})();
