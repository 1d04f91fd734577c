import type { ReactNode } from 'react';

/** A form's last row: its submit button (the primary one) and Cancel. */
export function FormButtons({ submit, onCancel, className }: { submit: ReactNode; onCancel: () => void; className: string }) {
  return (
    <div className={className}>
      <button type="submit" className="button primary">
        {submit}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
