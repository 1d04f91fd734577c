import type { ChangeMessage } from '../lib/use-offline-queue.ts';

/** What became of changes sent from the offline queue (a task completed meanwhile by someone else, a refusal), each dismissible. */
export function ChangeMessages({ messages, onDismiss }: { messages: ChangeMessage[]; onDismiss: (id: string) => void }) {
  return (
    <div className="change-messages" role="status" aria-live="polite" aria-label="Changes">
      {messages.map((message) => (
        <p key={message.id} className="change-message">
          <span>{message.text}</span>
          <button type="button" className="button" aria-label={`Dismiss: ${message.text}`} onClick={() => onDismiss(message.id)}>
            Dismiss
          </button>
        </p>
      ))}
    </div>
  );
}
