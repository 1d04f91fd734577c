import type { AppDeps } from '../../deps.ts';
import type { HttpRegistrar } from '../../http/routes.ts';
import { openApiJson } from './openapi.ts';

/** `GET /api/openapi.json`: the OpenAPI document, for members and their tokens (any scope). */
export function developersHttp(routes: HttpRegistrar, _deps: AppDeps): void {
  routes.route('GET /api/openapi.json', (_req, reply) => reply.type('application/json').send(openApiJson()));
}
