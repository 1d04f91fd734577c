/** A panel's own error message; announced to screen readers when it appears. */
export function ErrorBubble({ message, testId }: { message: string | null; testId?: string }) {
  return (
    <div className="error-bubble-slot" aria-live="assertive" data-testid={testId}>
      {message !== null && (
        <p className="error-bubble" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}
