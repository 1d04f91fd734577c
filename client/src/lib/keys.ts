import type { KeyboardEvent } from 'react';

/**
 * Space and Enter activate links and link-like controls. Enter already follows a link natively;
 * Space does not, so both are routed to a click, which also runs any copy handler.
 */
export function activateOnSpaceOrEnter(event: KeyboardEvent<HTMLElement>): void {
  if (event.key === ' ' || event.key === 'Enter') {
    event.preventDefault();
    event.currentTarget.click();
  }
}
