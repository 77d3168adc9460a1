// Draws the statistics charts (Chart.js from npm) and shades the per-box heatmap.
(function () {
  // Django's JavaScript catalogue (base.html) says the chart's words in the reader's language.
  const gettext = window.gettext || ((text) => text);
  // The site's colours, light or dark as the page is (static/css/site.css).
  const css = getComputedStyle(document.documentElement);
  const colour = (name) => css.getPropertyValue(name).trim();
  const accent = colour("--accent");
  // The page's language groups the axes' figures as its text does: 11.600 in German. English keeps the
  // site's plain 11600 in the bucket labels (Chart.js's own "en" ticks group, as they always have).
  const language = document.documentElement.lang || "en";
  const figure = (n) => (language.startsWith("en") ? String(n) : n.toLocaleString(language));
  // Days as the page's dates read: 2026-12-01 in English as before, 01.12.2026 in German (UTC, as
  // the English slice of the ISO time).
  const numeric = { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" };
  const day = (at) => (language.startsWith("en") ? at.slice(0, 10) : new Date(at).toLocaleDateString(language, numeric));
  if (window.Chart) {
    window.Chart.defaults.locale = language;
    window.Chart.defaults.color = colour("--muted");
    window.Chart.defaults.borderColor = colour("--line");
  }
  // The rating after each rated game (ratings.selectors.series), drawn like the score over time.
  const ratingSource = document.getElementById("rating-data");
  if (ratingSource && window.Chart) {
    const series = JSON.parse(ratingSource.textContent).series;
    // Along the axis the rated games by number (several a day would share one date); a point's
    // tooltip says when, to the minute, in the reader's own time.
    const when = (at) => new Date(at).toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
    new window.Chart(document.getElementById("rating-chart"), {
      type: "line",
      data: {
        labels: series.map((p, i) => figure(i + 1)),
        datasets: [{ label: gettext("Rating"), data: series.map((p) => p.rating), borderColor: accent, tension: 0.2 }],
      },
      options: {
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { title: (items) => when(series[items[0].dataIndex].at) } },
        },
        scales: { x: { title: { display: true, text: gettext("Rated game") } } },
      },
    });
  }
  const source = document.getElementById("chart-data");
  if (!source) return;
  const data = JSON.parse(source.textContent);
  if (window.Chart) {
    const h = data.histogram;
    new window.Chart(document.getElementById("histogram-chart"), {
      type: "bar",
      data: {
        labels: h.edges.map((lo) => `${figure(lo)}–${figure(lo + h.width - 1)}`),
        datasets: [{ label: gettext("Games"), data: h.counts, backgroundColor: accent }],
      },
      options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, ticks: { precision: 0 } } } },
    });
    new window.Chart(document.getElementById("series-chart"), {
      type: "line",
      data: {
        labels: data.series.map((p) => day(p.at)),
        datasets: [{ label: gettext("Final score"), data: data.series.map((p) => p.score), borderColor: accent, tension: 0.2 }],
      },
      options: { plugins: { legend: { display: false } } },
    });
  }
  const cells = Array.from(document.querySelectorAll("#box-heatmap td.heat"));
  const values = cells.map((c) => parseFloat(c.dataset.value)).filter((v) => !Number.isNaN(v));
  const max = Math.max(1, ...values);
  for (const cell of cells) {
    const v = parseFloat(cell.dataset.value);
    // At most 46 % of the accent: the figure on it keeps 4.5:1 in both themes.
    if (!Number.isNaN(v)) cell.style.background = `color-mix(in srgb, var(--accent) ${Math.round(6 + 40 * (v / max))}%, transparent)`;
  }
})();
