import { hash } from 'node:crypto';

/** One-shot crypto.hash: the hex SHA-256 every stored token is kept as (sessions, API tokens, links). */
export const hashToken = (token: string) => hash('sha256', token, 'hex');
