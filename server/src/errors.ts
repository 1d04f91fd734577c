/**
 * Domain errors: services throw these, and one middleware (trpc/procedures.ts) turns them into
 * tRPC errors, which the /trpc mount and the /api plugin both turn into HTTP answers; the HTTP
 * routes (http/routes.ts) answer them with `httpStatus`.
 */
export type AppErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'TOO_MANY_REQUESTS'
  | 'SERVICE_UNAVAILABLE';

/** The HTTP status of each code, the same as tRPC's for the codes it shares. */
export const httpStatus: Record<AppErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  SERVICE_UNAVAILABLE: 503,
};

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
