import { Component, type ReactNode } from 'react';
import { ErrorView } from '../components/ErrorView.tsx';

/**
 * Whatever a page throws while it renders (or its chunk failing to load): the message, inside the
 * shell under the navbar. A new address (`resetKey`) tries the page again.
 */
export class PageErrors extends Component<{ resetKey: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: undefined };

  static getDerivedStateFromError(error: unknown) {
    return { error: error ?? new Error('Unknown error') };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  override render() {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const message = error instanceof Error ? error.message : String(error);
    return <ErrorView title="That's an error." message={message} />;
  }
}
