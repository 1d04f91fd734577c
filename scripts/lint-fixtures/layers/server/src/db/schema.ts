// db-knows-no-area: db/ importing anything of the server but errors.ts.
import { users } from '../identity/users.ts';
export const tables = (): string[] => users();
