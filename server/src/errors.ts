/**
 * Domain errors: services throw these, and one middleware (trpc/procedures.ts) turns them into
 * tRPC errors, which the /trpc mount and the /api plugin both turn into HTTP answers.
 */
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS';

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** Set on a login of an account still waiting for an admin: the client then goes to /preauth. */
  readonly preauth: boolean;

  constructor(code: AppErrorCode, message: string, options: { preauth?: boolean } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.preauth = options.preauth ?? false;
  }
}
