// The pages' stylesheet, script and icon, served from our own routes so the content security
// policy can forbid every inline style and script. Each URL carries a hash of its content, so
// it is cached for a year and a new build is fetched at once.

export const STYLESHEET = `
:root {
  --bg: #f4f6fa; --surface: #ffffff; --border: #e2e7ef; --border-strong: #cfd6e2;
  --text: #101828; --muted: #5d6879; --faint: #8a94a6;
  --accent: #4f46e5; --accent-hover: #4338ca; --accent-soft: #eef0ff;
  --ok: #16a34a; --warn: #d97706; --danger: #dc2626; --danger-soft: #fef2f2; --ok-soft: #f0fdf4; --warn-soft: #fffbeb;
  --radius: 12px; --shadow: 0 1px 2px rgba(16, 24, 40, .05), 0 1px 3px rgba(16, 24, 40, .04);
  --mono: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
code, .mono { font-family: var(--mono); font-size: .9em; }
.wrap { max-width: 1120px; margin: 0 auto; padding-left: 20px; padding-right: 20px; }
.muted { color: var(--muted); }
.small { font-size: 13px; }
.nowrap { white-space: nowrap; }
.num { font-variant-numeric: tabular-nums; text-align: right; }

/* Top bar */
.topbar { background: #0f172a; color: #e2e8f0; }
.topbar-inner { display: flex; align-items: center; gap: 14px; min-height: 56px; flex-wrap: wrap; padding-top: 8px; padding-bottom: 8px; }
.brand { display: inline-flex; align-items: center; gap: 9px; color: #fff; font-weight: 650; font-size: 17px; letter-spacing: -.01em; }
.brand:hover { text-decoration: none; }
.brand svg { width: 24px; height: 24px; }
.area { font-size: 13px; color: #94a3b8; border-left: 1px solid #334155; padding-left: 14px; }
.spacer { flex: 1; }
.who { font-size: 13px; color: #cbd5e1; display: inline-flex; align-items: center; gap: 12px; }
.who form { margin: 0; }

/* Buttons and forms */
.btn { display: inline-flex; align-items: center; justify-content: center; gap: 6px; border: 1px solid transparent; border-radius: 8px; padding: 8px 14px; font: inherit; font-weight: 550; font-size: 14px; cursor: pointer; background: var(--accent); color: #fff; line-height: 1.3; }
.btn:hover { background: var(--accent-hover); text-decoration: none; }
.btn:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible { outline: 3px solid rgba(79, 70, 229, .35); outline-offset: 1px; }
.btn-quiet { background: transparent; color: inherit; border-color: currentColor; opacity: .9; }
.btn-quiet:hover { background: rgba(255, 255, 255, .08); }
.btn-secondary { background: var(--surface); color: var(--text); border-color: var(--border-strong); }
.btn-secondary:hover { background: #f8fafc; }
.btn-danger { background: var(--danger); }
.btn-danger:hover { background: #b91c1c; }
.btn-small { padding: 4px 10px; font-size: 13px; }
.btn-block { width: 100%; padding: 10px 14px; }
label { display: block; font-size: 13px; font-weight: 600; margin-bottom: 5px; color: #344054; }
.field { margin-bottom: 14px; }
.field-row { display: grid; gap: 0 12px; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); }
input[type=text], input[type=password], input[type=email], input[type=number], select {
  width: 100%; font: inherit; padding: 9px 11px; border: 1px solid var(--border-strong); border-radius: 8px; background: #fff; color: var(--text);
}
.check { display: flex; gap: 8px; align-items: flex-start; font-weight: 450; font-size: 14px; color: var(--text); margin: 4px 0 14px; }
.check input { margin-top: 3px; }
.hint { font-size: 13px; color: var(--muted); margin: 4px 0 0; }
.hint + form { margin-top: 12px; }
.actions { display: flex; gap: 10px; flex-wrap: wrap; align-items: center; }

/* Page structure */
main { padding: 28px 0 40px; }
.page-head { display: flex; justify-content: space-between; align-items: flex-end; gap: 12px 20px; flex-wrap: wrap; margin-bottom: 22px; }
h1 { font-size: 26px; line-height: 1.2; margin: 0; letter-spacing: -.02em; }
.lede { color: var(--muted); margin: 6px 0 0; }
.meta { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
.grid { display: grid; gap: 16px; margin-bottom: 16px; }
.grid-main { grid-template-columns: minmax(0, 1fr) minmax(0, 2fr); }
.grid-2 { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.stats { display: grid; gap: 16px; grid-template-columns: repeat(2, minmax(0, 1fr)); }
.stats-wide { grid-template-columns: repeat(auto-fit, minmax(170px, 1fr)); margin-bottom: 16px; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 20px; box-shadow: var(--shadow); min-width: 0; }
.card > h2, .card-head h2 { font-size: 15px; font-weight: 650; margin: 0 0 14px; }
.card-head { display: flex; justify-content: space-between; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.card-head .muted { font-size: 13px; }
.stat { display: flex; flex-direction: column; gap: 2px; }
.stat-label { font-size: 12px; font-weight: 600; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
.stat-value { font-size: 28px; font-weight: 680; letter-spacing: -.02em; font-variant-numeric: tabular-nums; line-height: 1.2; }
.stat-hint { font-size: 13px; color: var(--muted); }
footer { color: var(--faint); font-size: 13px; padding: 0 20px 32px; }
dl.facts { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 8px 18px; margin: 0; font-size: 14px; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }

/* Pills and banners */
.pill { display: inline-flex; align-items: center; gap: 6px; font-size: 12px; font-weight: 600; padding: 3px 10px; border-radius: 999px; background: var(--accent-soft); color: var(--accent); white-space: nowrap; }
.pill-ok { background: var(--ok-soft); color: #15803d; }
.pill-off { background: #f1f5f9; color: #475569; }
.banner { border-radius: 10px; padding: 12px 14px; margin-bottom: 18px; font-size: 14px; border: 1px solid; }
.banner strong { display: block; margin-bottom: 2px; }
.banner-error { background: var(--danger-soft); border-color: #fecaca; color: #991b1b; }
.banner-ok { background: var(--ok-soft); border-color: #bbf7d0; color: #166534; }
.banner-info { background: var(--accent-soft); border-color: #c7d2fe; color: #3730a3; }
.banner-warn { background: var(--warn-soft); border-color: #fde68a; color: #92400e; }

/* Gauge; its levels colour the table bars too */
.level-ok { --level: var(--accent); } .level-warn { --level: var(--warn); } .level-full { --level: var(--danger); }
.gauge-box { display: flex; flex-direction: column; align-items: center; text-align: center; }
.gauge { width: 100%; max-width: 240px; height: auto; }
.gauge-track { fill: none; stroke: #e9edf3; stroke-width: 18; stroke-linecap: round; }
.gauge-fill { fill: none; stroke: var(--level); stroke-width: 18; stroke-linecap: round; }
.gauge-pct { font-size: 34px; font-weight: 700; fill: var(--text); letter-spacing: -.02em; }
.gauge-cap { font-size: 13px; fill: var(--muted); }
.gauge-figures { font-size: 15px; margin-top: 6px; }
.gauge-figures strong { font-variant-numeric: tabular-nums; }
.gauge-reset { font-size: 13px; color: var(--muted); margin-top: 2px; }

/* Small bar in tables */
.bar { display: inline-block; width: 72px; height: 8px; vertical-align: middle; margin-right: 8px; }
.bar-track { fill: #e9edf3; }
.bar-fill { fill: var(--level); }

/* Chart */
.chart { width: 100%; height: auto; display: block; }
.chart text { font-size: 12px; fill: var(--muted); }
.chart .gridline { stroke: #edf0f5; stroke-width: 1; }
.chart .baseline { stroke: var(--border-strong); stroke-width: 1; }
.chart .empty { font-size: 15px; fill: var(--faint); }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; list-style: none; margin: 0 0 10px; padding: 0; font-size: 13px; color: var(--muted); }
.legend li { display: inline-flex; align-items: center; gap: 6px; }
.swatch { width: 10px; height: 10px; flex: none; }
.series-0 { fill: #4f46e5; } .series-1 { fill: #0ea5e9; } .series-2 { fill: #14b8a6; } .series-3 { fill: #f59e0b; }
.series-4 { fill: #ec4899; } .series-5 { fill: #8b5cf6; } .series-6 { fill: #94a3b8; }
details { margin-top: 12px; }
summary { cursor: pointer; color: var(--accent); font-size: 13px; font-weight: 550; }

/* Tables */
.table-scroll { overflow-x: auto; margin: 0 -20px; padding: 0 20px; }
table { width: 100%; border-collapse: collapse; font-size: 14px; }
th, td { text-align: left; padding: 10px 12px; border-bottom: 1px solid var(--border); vertical-align: middle; }
th { font-size: 12px; font-weight: 650; color: var(--muted); text-transform: uppercase; letter-spacing: .05em; white-space: nowrap; background: #fafbfd; }
th a { color: inherit; }
th a.sorted { color: var(--text); }
th .arrow { font-size: 10px; margin-left: 3px; }
tr:last-child td { border-bottom: 0; }
tbody tr:hover { background: #fafbff; }
td.num, th.num { text-align: right; }
.tenant-name { font-weight: 600; }
.empty-row { text-align: center; color: var(--muted); padding: 24px; }

/* Secrets */
.secret-box { background: #0f172a; color: #e2e8f0; border-radius: 10px; padding: 14px 16px; margin: 6px 0 16px; display: flex; align-items: center; gap: 12px; flex-wrap: wrap; }
.secret-box code { font-size: 14px; overflow-wrap: anywhere; flex: 1 1 240px; color: #f8fafc; }
.secret-label { font-size: 12px; font-weight: 650; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); }
pre.snippet { background: #f8fafc; border: 1px solid var(--border); border-radius: 10px; padding: 12px 14px; overflow-x: auto; font-size: 13px; margin: 8px 0 0; }
.copy[hidden] { display: none; }

/* Sign-in */
.auth { max-width: 420px; margin: 7vh auto 0; }
.auth .card { padding: 28px; }
.auth h1 { font-size: 22px; margin-bottom: 6px; }
.auth .lede { margin-bottom: 20px; }
.auth-foot { text-align: center; font-size: 13px; color: var(--muted); margin-top: 16px; }

@media (max-width: 860px) {
  .grid-main, .grid-2 { grid-template-columns: minmax(0, 1fr); }
}
@media (max-width: 520px) {
  body { font-size: 14px; }
  .wrap { padding-left: 14px; padding-right: 14px; }
  main { padding-top: 20px; }
  h1 { font-size: 22px; }
  .card { padding: 16px; }
  .table-scroll { margin: 0 -16px; padding: 0 16px; }
  .stats { gap: 10px; }
  .stat-value { font-size: 22px; }
  .chart text { font-size: 20px; }
  .area { display: none; }
  .who .who-name { display: none; }
  th, td { padding: 9px 8px; }
}
`;

/** Copy buttons: the only script, and the pages work without it (the buttons stay hidden). */
export const CLIENT_SCRIPT = `
document.querySelectorAll("button[data-copy]").forEach(function (button) {
  var target = document.getElementById(button.getAttribute("data-copy"));
  if (!target || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      var label = button.textContent;
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = label; }, 1500);
    });
  });
});
`;

/** The brand mark's shapes: the icon's, and the top bar's. */
export const ICON_SHAPES = `<rect width="32" height="32" rx="8" fill="#4f46e5"/><path d="M8 21.5a8 8 0 0 1 16 0" fill="none" stroke="#c7d2fe" stroke-width="3.2" stroke-linecap="round"/><path d="M8 21.5a8 8 0 0 1 11.2-7.3" fill="none" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/><circle cx="16" cy="21.5" r="2.2" fill="#fff"/>`;

export const ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">${ICON_SHAPES}</svg>`;

/** FNV-1a, enough to tell one build's asset from the next. */
function contentHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export const ASSET_PATHS = {
  stylesheet: `/dashboard/assets/style.${contentHash(STYLESHEET)}.css`,
  script: `/dashboard/assets/app.${contentHash(CLIENT_SCRIPT)}.js`,
  icon: `/dashboard/assets/icon.${contentHash(ICON_SVG)}.svg`,
};
