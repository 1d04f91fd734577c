import type { Generated } from 'kysely';

/**
 * Changes made in a browser carry an id the browser made (a UUID): an offline change waits in the
 * browser's queue and may be sent more than once (an answer lost on a bad network, two tabs). Each
 * applied id is kept here with the answer it got, per account, so a second sending answers the same and
 * changes nothing. Shared by the areas whose writes the queue sends (house, todo).
 */
export interface ClientChangesTable {
  user_id: number;
  client_id: string;
  /** The procedure it was sent to (`house.complete`): the same id for another change is refused. */
  procedure: string;
  /** The first answer, as JSON; null only inside the transaction that applies it. */
  result: unknown;
  created_at: Generated<Date>;
}

export interface ClientChangesTables {
  client_changes: ClientChangesTable;
}
