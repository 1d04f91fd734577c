import type { Executor } from '../../db/database.ts';

const columns = ['id', 'port', 'description'] as const;

export function listServers(db: Executor) {
  return db.selectFrom('game_servers').select(columns).orderBy('port').execute();
}

export function findByPort(db: Executor, port: number) {
  return db.selectFrom('game_servers').select(columns).where('port', '=', port).executeTakeFirst();
}

export function findById(db: Executor, id: number) {
  return db.selectFrom('game_servers').select(columns).where('id', '=', id).executeTakeFirst();
}

export function insertServer(db: Executor, values: { port: number; description: string }) {
  return db.insertInto('game_servers').values(values).returning(columns).executeTakeFirstOrThrow();
}

export function updateServer(db: Executor, id: number, values: { port: number; description: string }) {
  return db.updateTable('game_servers').set(values).where('id', '=', id).returning(columns).executeTakeFirst();
}

export function deleteServer(db: Executor, id: number) {
  return db.deleteFrom('game_servers').where('id', '=', id).returning(columns).executeTakeFirst();
}
