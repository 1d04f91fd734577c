/** Covers the page until the startup calls have answered, so nobody sees the default colours flash. */
export function LoadingCover({ visible = true }: { visible?: boolean }) {
  return (
    <div className={`loading-cover${visible ? '' : ' done'}`} role="status" aria-live="polite" aria-hidden={!visible}>
      <div className="loading-spinner" />
      <span className="visually-hidden">Loading</span>
    </div>
  );
}
