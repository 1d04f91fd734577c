import { useEffect, useRef } from 'react';
import type { CharityEntry } from '@site/contracts/finance';
import { documentUrl } from './documents.ts';

/** The documentation of one entry over the page: an image, or a PDF in the browser's viewer. Escape closes. */
export function DocumentViewer({ entry, version, onClose }: { entry: CharityEntry; version: number; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
  }, []);
  const url = documentUrl(entry.id, version);
  const title = `Documentation for ${entry.recipient}, ${entry.date}`;
  return (
    <dialog
      ref={dialog}
      className="finance-viewer"
      aria-labelledby="finance-viewer-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <header className="finance-viewer-header">
        <h2 id="finance-viewer-title">{title}</h2>
        <div className="link-row">
          <a className="button" href={url} target="_blank" rel="noreferrer">
            Open in a new tab
          </a>
          <button type="button" className="button primary" autoFocus onClick={onClose}>
            Close
          </button>
        </div>
      </header>
      <div className="finance-viewer-body">
        {entry.documentationType === 'application/pdf' ? (
          <iframe src={url} title={title} className="finance-viewer-frame" />
        ) : (
          <img src={url} alt={title} className="finance-viewer-image" />
        )}
      </div>
    </dialog>
  );
}
