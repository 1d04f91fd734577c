/**
 * zod compiles object schemas with `new Function` when it may, and finds out by trying once; under
 * the site's CSP (script-src 'self', no 'unsafe-eval') that try is refused and Chrome logs a CSP
 * issue (Lighthouse best practices). Its documented switch is z.config({ jitless: true }); set here
 * on the global object zod reads it from (whichever loads first), so the shell need not load zod.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = Object.assign(holder.__zod_globalConfig ?? {}, { jitless: true });
