// area-not-to-other-area: beta reaches into alpha's repository (its port is allowed).
import { alphaRows } from '../alpha/alpha.repository.ts';
import { alphaCount } from '../alpha/alpha.port.ts';
export const betaService = (): number => alphaRows().length + alphaCount();
