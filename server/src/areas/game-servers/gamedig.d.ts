/** The part of GameDig 5 (shipped without types) that the game servers area uses. */
declare module 'gamedig' {
  export type QueryOptions = {
    type: string;
    host: string;
    port?: number;
    /** Per socket read, ms. */
    socketTimeout?: number;
    /** Per attempt, ms. */
    attemptTimeout?: number;
    maxRetries?: number;
    givenPortOnly?: boolean;
    portCache?: boolean;
    requestPlayers?: boolean;
  };
  export type QueryResult = {
    name: string;
    map: string;
    version: string;
    maxplayers: number;
    numplayers: number;
    players: { name?: string }[];
    bots: { name?: string }[];
    ping: number;
    connect: string;
  };
  /** The protocol classes by name (all extend GameDig's Core, whose read paths game-query.ts caps). */
  export const protocols: Record<string, { prototype: object }>;
  export class GameDig {
    constructor(runnerOptions?: { listenUdpPort?: number });
    query(options: QueryOptions): Promise<QueryResult>;
  }
}
