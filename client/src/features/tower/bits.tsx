/** Small pieces shared by the panels: action dots and health bars. */

export function ActionDots({ actions, max }: { actions: number; max: number }) {
  const dots = [];
  for (let i = 0; i < Math.max(max, actions); i++) {
    dots.push(<span key={i} className={i < actions ? 'tower-dot filled' : 'tower-dot'} data-filled={i < actions ? 'true' : 'false'} />);
  }
  return (
    <span className="tower-dots" role="img" aria-label={`${actions} of ${max} actions left`} data-testid="action-dots">
      {dots}
    </span>
  );
}

export function HealthBar({ hp, hpMax, label }: { hp: number; hpMax: number; label: string }) {
  const fraction = hpMax > 0 ? Math.max(0, Math.min(1, hp / hpMax)) : 0;
  const tone = fraction > 0.6 ? 'good' : fraction > 0.3 ? 'warn' : 'bad';
  return (
    <span className="tower-health" role="meter" aria-label={`${label} health`} aria-valuemin={0} aria-valuemax={hpMax} aria-valuenow={Math.max(0, hp)}>
      <span className={`tower-health-fill ${tone}`} style={{ width: `${fraction * 100}%` }} />
      <span className="tower-health-text">
        {hp}/{hpMax}
      </span>
    </span>
  );
}
