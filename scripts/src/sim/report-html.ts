/**
 * report.html: the balance report as one self-contained page (inline CSS and SVG charts, no script, no
 * font or picture from elsewhere), made from the report's JSON alone so it is as reproducible as the JSON.
 */
import { defaultSiteNote } from './report.ts';
import type { BalanceReport, Comparison, Outlier, ReportRun } from './report.ts';

const W = 520;
const H = 220;
const PAD = { left: 48, right: 24, top: 12, bottom: 40 };

function esc(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function pct(fraction: number, digits = 1): string {
  return `${(fraction * 100).toFixed(digits)} %`;
}

function num(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Ticks at 0, max/2 and max of a count axis. */
function yTicks(max: number, y: (v: number) => number): string {
  const values = [...new Set([0, Math.round(max / 2), max])];
  return values
    .map((v) => `<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${num(y(v))}" y2="${num(y(v))}"/><text class="tick" x="${PAD.left - 6}" y="${num(y(v) + 4)}" text-anchor="end">${v}</text>`)
    .join('');
}

/** A bar chart of counts, one bar per label. */
function barChart(id: string, title: string, labels: readonly string[], values: readonly number[], xTitle: string): string {
  const max = Math.max(1, ...values);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, values.length);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const every = Math.max(1, Math.ceil(labels.length / 12));
  const bars = values
    .map((v, i) => {
      const x = PAD.left + i * slot + slot * 0.1;
      const label = labels[i] ?? '';
      const text = i % every === 0 ? `<text class="tick" x="${num(x + slot * 0.4)}" y="${H - PAD.bottom + 14}" text-anchor="middle">${esc(label)}</text>` : '';
      return `<rect class="bar" x="${num(x)}" y="${num(y(v))}" width="${num(slot * 0.8)}" height="${num(PAD.top + plotH - y(v))}"><title>${esc(label)}: ${v}</title></rect>${text}`;
    })
    .join('');
  return figure(id, title, `${yTicks(max, y)}${bars}<text class="axis" x="${PAD.left + plotW / 2}" y="${H - 6}" text-anchor="middle">${esc(xTitle)}</text>`);
}

/** Points with 95% intervals on a 0..100 % (or -100..100 %) axis, one row per item. */
function intervalChart(id: string, title: string, rows: { label: string; value: number; low: number; high: number }[], from: number): string {
  const rowH = 26;
  const height = PAD.top + rows.length * rowH + 34;
  const left = 150;
  const plotW = W - left - PAD.right;
  const x = (v: number) => left + ((v - from) / (1 - from)) * plotW;
  const ticks = (from < 0 ? [-1, -0.5, 0, 0.5, 1] : [0, 0.25, 0.5, 0.75, 1])
    .map((t) => `<line class="grid" x1="${num(x(t))}" x2="${num(x(t))}" y1="${PAD.top}" y2="${height - 30}"/><text class="tick" x="${num(x(t))}" y="${height - 16}" text-anchor="middle">${Math.round(t * 100)} %</text>`)
    .join('');
  const marks = rows
    .map((r, i) => {
      const cy = PAD.top + i * rowH + rowH / 2;
      return (
        `<text class="tick" x="${left - 8}" y="${num(cy + 4)}" text-anchor="end">${esc(r.label)}</text>` +
        `<line class="whisker" x1="${num(x(r.low))}" x2="${num(x(r.high))}" y1="${num(cy)}" y2="${num(cy)}"/>` +
        `<rect class="bar" x="${num(Math.min(x(r.low), x(r.high)))}" y="${num(cy - 6)}" width="${num(Math.abs(x(r.high) - x(r.low)))}" height="12" opacity="0.35"/>` +
        `<circle class="dot" cx="${num(x(r.value))}" cy="${num(cy)}" r="5"><title>${esc(r.label)}: ${pct(r.value)} (95% ${pct(r.low)} to ${pct(r.high)})</title></circle>`
      );
    })
    .join('');
  return figure(id, title, `${ticks}${marks}`, height);
}

function figure(id: string, title: string, body: string, height = H): string {
  return `<figure data-chart="${esc(id)}"><figcaption>${esc(title)}</figcaption><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${esc(title)}">${body}</svg></figure>`;
}

function runName(run: Pick<ReportRun, 'policy' | 'rules'>): string {
  return `${run.policy}, ${run.rules} rules`;
}

function runId(run: Pick<ReportRun, 'policy' | 'rules'>): string {
  return `${run.policy}-${run.rules}`;
}

function outlierRow(name: string, o: Outlier | null): string {
  if (!o) return `<tr><th>${name}</th><td colspan="3">none in this run</td></tr>`;
  return (
    `<tr><th>${name}</th><td>game ${o.game} (seed <code>${esc(o.seed)}</code>): ${o.outcome} in round ${o.rounds} on floor ${o.floor}</td>` +
    `<td><code class="command">${esc(o.command)}</code></td><td><a href="${esc(o.link)}">watch the replay</a></td></tr>`
  );
}

/** The ids of every chart the page draws for a report (the browser test checks each is there). */
export function chartIds(report: BalanceReport): string[] {
  const ids = ['win-rate'];
  if (report.comparisons.length > 0) ids.push('compare');
  for (const run of report.runs) for (const part of ['rounds', 'floors', 'deaths', 'survivors']) ids.push(`${part}-${runId(run)}`);
  return ids;
}

function runSection(run: ReportRun): string {
  const h = run.rounds.histogram;
  const binLabels = h.counts.map((_, i) => (h.width === 1 ? String(h.start + i) : `${h.start + i * h.width}-${h.start + (i + 1) * h.width - 1}`));
  const id = runId(run);
  return `<section class="run" id="run-${esc(id)}">
<h2>${esc(runName(run))}</h2>
<p class="facts"><strong>${pct(run.winRate.rate, 2)}</strong> won (95% Wilson interval ${pct(run.winRate.low, 2)} to ${pct(run.winRate.high, 2)}):
${run.wins} won, ${run.losses} lost, ${run.capped} capped of ${run.games}. Rounds: median ${run.rounds.median}, p95 ${run.rounds.p95},
mean ${run.rounds.mean.toFixed(2)}, min ${run.rounds.min}, max ${run.rounds.max}. Final-state hash <code>${run.finalHash}</code>.</p>
<div class="charts">
${barChart(`rounds-${id}`, 'Rounds per game', binLabels, h.counts, h.width === 1 ? 'round the game ended in' : `round the game ended in (bins of ${h.width})`)}
${barChart(`floors-${id}`, 'Floor reached', Object.keys(run.floors).map((f) => `floor ${f}`), Object.values(run.floors), 'floor the game ended on')}
${barChart(`deaths-${id}`, 'Survivors killed, by enemy kind', Object.keys(run.deathsByEnemy), Object.values(run.deathsByEnemy), 'enemy that dealt the killing blow')}
${barChart(`survivors-${id}`, 'Survivors alive at the end', Object.keys(run.survivorsLeft), Object.values(run.survivorsLeft), 'survivors left')}
</div>
<h3>Outlier seeds</h3>
<div class="scroll"><table class="outliers"><tbody>
${outlierRow('Fastest win', run.outliers.fastestWin)}
${outlierRow('Longest loss', run.outliers.longestLoss)}
${outlierRow('Closest loss', run.outliers.closestLoss)}
</tbody></table></div>
</section>`;
}

function comparisonTable(comparisons: readonly Comparison[]): string {
  const rows = comparisons
    .map(
      (c) =>
        `<tr><th>${esc(c.policy)}</th><td>${pct(c.current, 2)}</td><td>${pct(c.variant, 2)}</td><td>${c.difference >= 0 ? '+' : ''}${pct(c.difference, 2)} (95% ${pct(c.low, 2)} to ${pct(c.high, 2)})</td><td>${c.significant ? '<strong>significant</strong>' : 'not significant'}</td></tr>`,
    )
    .join('');
  return `<table class="compare"><thead><tr><th>policy</th><th>current rules</th><th>variant</th><th>difference</th><th>at 95%</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const STYLE = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
main{max-width:1100px;margin:0 auto;padding:24px}
header{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:16px 20px;margin-bottom:20px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:19px;margin:0 0 8px}h3{font-size:16px;margin:16px 0 6px}
code{font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#eef0f4;padding:1px 4px;border-radius:4px;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 12px;margin:0}dt{font-weight:600}dd{margin:0}
section{background:#fff;border:1px solid #dde1e7;border-radius:8px;padding:16px 20px;margin-bottom:20px}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(480px,100%),1fr));gap:12px}
figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}svg{max-width:100%;height:auto}
.bar{fill:#3b6fd8}.dot{fill:#c2410c}.whisker{stroke:#c2410c;stroke-width:2}
.grid{stroke:#e3e6eb;stroke-width:1}.tick{font-size:11px;fill:#4a5263}.axis{font-size:12px;fill:#1d2330}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:6px 8px;border-top:1px solid #e3e6eb;vertical-align:top}
.command{display:inline-block;max-width:420px}
.scroll{overflow-x:auto;max-width:100%}.scroll table{min-width:560px}
dd{min-width:0;overflow-wrap:anywhere}
@media (max-width:600px){main{padding:12px}header,section{padding:12px}}
`;

export function reportHtml(report: BalanceReport): string {
  const winRows = report.runs.map((r) => ({ label: runName(r), value: r.winRate.rate, low: r.winRate.low, high: r.winRate.high }));
  const compareRows = report.comparisons.map((c) => ({ label: `${c.policy}: variant - current`, value: c.difference, low: c.low, high: c.high }));
  const set = Object.entries(report.set);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>Tower balance report: seed ${esc(report.seed)}, ${report.games} games</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header>
<h1>Tower balance report</h1>
<dl>
<dt>Command</dt><dd><code>${esc(report.command)}</code></dd>
<dt>Engine</dt><dd>@site/game-engine ${esc(report.engineVersion)}</dd>
<dt>Rules hash</dt><dd>${Object.entries(report.rulesHash).map(([name, hash]) => `${esc(name)} <code>${esc(hash)}</code>`).join(', ')}</dd>
<dt>Games</dt><dd>${report.games} per run, game i on the seed <code>${esc(report.seed)}-i</code>, stopped after ${report.maxRounds} rounds</dd>
<dt>Replay links</dt><dd data-replay-site>${report.replaySite.from === 'default' ? esc(defaultSiteNote(report.replaySite.url)) : `open <code>${esc(report.replaySite.url)}</code> (from ${report.replaySite.from})`}</dd>
<dt>Variant</dt><dd>${set.length === 0 ? 'none (the current rules)' : set.map(([p, v]) => `<code>${esc(p)}=${esc(Array.isArray(v) ? v.map((c) => c.join('+')).join(',') : String(v))}</code>`).join(' ')}</dd>
</dl>
</header>
<section>
<h2>Win rate</h2>
${intervalChart('win-rate', 'Win rate with its 95% Wilson interval', winRows, 0)}
${report.comparisons.length > 0 ? `<h3>Variant against the current rules (same seeds)</h3><div class="scroll">${comparisonTable(report.comparisons)}</div>${intervalChart('compare', 'Difference in win rate with its 95% interval (Newcombe)', compareRows, -1)}` : ''}
</section>
${report.runs.map(runSection).join('\n')}
</main>
</body>
</html>
`;
}
