const HOUR = 3_600_000;

/**
 * A small inline chart of players over the last hours (no chart library): one bar per sample at its
 * time, on a baseline spanning the whole window, so a server seen only lately reads as such.
 */
export function Sparkline({ points, label, hours = 24, now = Date.now(), width = 96, height = 24 }: {
  points: readonly { at: string; players: number }[];
  label: string;
  hours?: number;
  now?: number;
  width?: number;
  height?: number;
}) {
  const start = now - hours * HOUR;
  const top = Math.max(1, ...points.map((p) => p.players));
  const bar = Math.max(2, width / (hours * 2) - 0.5);
  return (
    <svg className="sparkline" role="img" aria-label={label} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <line x1="0" x2={width} y1={height - 0.5} y2={height - 0.5} stroke="currentColor" strokeOpacity="0.35" />
      {points.map((p) => {
        const x = Math.min(width - bar, Math.max(0, ((Date.parse(p.at) - start) / (hours * HOUR)) * width));
        const h = Math.max(1, (p.players / top) * (height - 2));
        return <rect key={p.at} x={x.toFixed(1)} y={(height - h).toFixed(1)} width={bar.toFixed(1)} height={h.toFixed(1)} fill="currentColor" />;
      })}
    </svg>
  );
}
