import { copyAndAlert } from '../lib/clipboard.ts';

/** A copy card target: spelled COPY > text; copies the text and confirms with an alert. */
export function CopyButton({ label, text, alert }: { label: string; text: string; alert: string }) {
  return (
    <button type="button" className="copy-button" onClick={() => void copyAndAlert(text, alert)}>
      <span className="copy-label">{label}</span>
      <span className="copy-target">
        <span className="copy-word">COPY</span> &gt; {text}
      </span>
    </button>
  );
}
