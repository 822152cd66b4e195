// The report's CSS: the look of the rank report (html-report.ts) — system font, light cards,
// the yellow SIMULATED badge — widened for tables and plots, readable at 1200 px.
export const REPORT_STYLE = `
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d1d1f;background:#fafafa}
main{max-width:1180px;margin:0 auto;padding:2rem 1.5rem 3rem}
h1{font-size:1.6rem;margin:0 0 .4rem;overflow-wrap:anywhere}h2{font-size:1.2rem;margin:2.2rem 0 .8rem}
section{margin-top:1rem}
.facts{color:#555;margin:.3rem 0}.facts b{color:#1d1d1f;font-weight:600}
.models{color:#666;font-size:.85rem;margin:.2rem 0}
.sim{display:inline-block;vertical-align:middle;background:#ffd23f;color:#1d1d1f;border:1px solid #b38600;border-radius:6px;padding:.1rem .55rem;font-size:.8rem;font-weight:700;letter-spacing:.04em;text-transform:uppercase;margin-left:.4rem}
.sim-note{background:#fff6d6;border-left:4px solid #ffb800;padding:.6rem .8rem;margin:.8rem 0;border-radius:0 6px 6px 0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:.8rem;margin:1.2rem 0}
.card{background:#fff;border:1px solid #ddd;border-radius:10px;padding:.9rem 1rem;margin:0}
.key .label{color:#666;font-size:.82rem}.key .big{font-size:1.7rem;font-weight:650;margin:.15rem 0 0}.key .ci{color:#666;font-size:.85rem}
table{border-collapse:collapse;width:100%;background:#fff;border:1px solid #ddd;border-radius:10px;overflow:hidden}
th,td{padding:.45rem .7rem;text-align:left;border-bottom:1px solid #eee;vertical-align:middle}
thead th{background:#f3f3f5;font-size:.82rem;color:#444;font-weight:600}
tbody th{font-weight:500}
tr.pooled th,tr.pooled td{background:#f7f7f9;font-weight:600;border-top:2px solid #ccc}
.num{text-align:right;font-variant-numeric:tabular-nums}.center{text-align:center}
.estimate,thead th{white-space:nowrap}
.value{font-variant-numeric:tabular-nums;font-weight:600}.ci{color:#666;font-size:.85em;font-variant-numeric:tabular-nums}
.na{color:#8a8a8e;font-style:italic}
.note{color:#555;font-size:.85rem;max-width:75em}
.muted{color:#777;font-size:.85em}.id{font-weight:500;overflow-wrap:anywhere}
.swatch{display:inline-block;width:.75rem;height:.75rem;border-radius:50%;margin-right:.45rem;vertical-align:-.05rem}
.plots{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1rem;align-items:start;margin-top:1rem}
figure figcaption{font-weight:600;margin-bottom:.3rem}
.legend{list-style:none;padding:0;margin:.2rem 0 .4rem;display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.85rem;color:#333}
.legend .dot,.legend .ring{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;margin-right:.4rem;vertical-align:-.05rem;background:#555;border:2px solid #555}.legend .ring{background:#fff}
svg.plot{width:100%;height:auto;display:block;font:12px system-ui,sans-serif}
svg .plot-area{fill:#fff;stroke:#bbb}svg .grid{stroke:#ececec}svg .tick{fill:#555}svg .axis-title{fill:#333;font-size:13px}
svg .points circle{stroke:#fff;stroke-width:1.2;fill-opacity:.9}svg .estimate circle{stroke-width:2}
svg .whisker{stroke-width:2}svg .cap{stroke-width:2}
svg .chance{stroke:#c0392b;stroke-dasharray:5 4;stroke-width:1.5}svg .chance-label{fill:#c0392b;font-size:11px}
svg .row-label{fill:#1d1d1f}svg .row-label.pooled{font-weight:700}svg .rule{stroke:#ccc}svg .no-data{fill:#8a8a8e;font-style:italic}svg .empty{fill:#8a8a8e}
details{background:#fff;border:1px solid #ddd;border-radius:10px;margin:.5rem 0;padding:.2rem .8rem}
details summary{cursor:pointer;padding:.4rem 0;font-weight:500}details table{border:0;margin:.3rem 0 .6rem}
.thumb{width:44px;height:44px;border-radius:6px;object-fit:cover;background:#f0f0f0;display:inline-block;vertical-align:middle}
.pairs .side{display:flex;align-items:center;gap:.5rem}
.verdict{font-weight:600;font-size:.85rem;padding:.1rem .5rem;border-radius:999px}.verdict.yes{background:#e3f4ea;color:#1e6b3c}.verdict.no{background:#fde8e6;color:#a2281c}.verdict.none{background:#eee;color:#666}
ul.failed li{margin:.2rem 0}
footer{margin-top:2.5rem;color:#888;font-size:.8rem;border-top:1px solid #e5e5e5;padding-top:.8rem;overflow-wrap:anywhere}
@media (max-width:900px){.plots{grid-template-columns:1fr}}
`;
