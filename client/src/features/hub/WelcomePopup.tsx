import { useEffect, useRef, useState } from 'react';
import { owner } from '../../owner.config.ts';
import { trpc } from '../../lib/trpc.ts';

/**
 * Asks on each visit to the hub whether to keep showing itself. The spec's OK ("Show again next
 * time") closes it for now; its Cancel ("Don't show again") tells the server never to show it again
 * for this account. The buttons say what they do.
 */
export function WelcomePopup() {
  const splash = trpc.settings.splash.useQuery(undefined, { staleTime: Infinity });
  const utils = trpc.useUtils();
  const dismiss = trpc.settings.dismissSplash.useMutation({
    onSuccess: (data) => utils.settings.splash.setData(undefined, data),
  });
  const [closed, setClosed] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const open = splash.data?.display === true && !closed;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    if (!open && element.open) element.close();
  }, [open]);

  if (!open) return null;
  return (
    <dialog ref={dialog} className="welcome-dialog" aria-labelledby="welcome-title" onCancel={() => setClosed(true)}>
      <h2 id="welcome-title">Welcome to the hub</h2>
      <p>{owner.hubWelcome}</p>
      <p>Show this welcome again next time?</p>
      <div className="link-row">
        <button type="button" className="button primary" autoFocus onClick={() => setClosed(true)}>
          Show again next time
        </button>
        <button
          type="button"
          className="button"
          onClick={() => {
            setClosed(true);
            dismiss.mutate();
          }}
        >
          {"Don't show again"}
        </button>
      </div>
    </dialog>
  );
}
