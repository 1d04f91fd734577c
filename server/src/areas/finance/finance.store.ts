import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../deps.ts';

/** The part of the shared media storage the finance area uses. */
export type DocumentStore = {
  put(key: string, data: Uint8Array): Promise<unknown>;
  readBuffer(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
};

/** Temporary: files under DATA_DIR/media until the shared storage (server/src/media) lands. */
export function documentStore(deps: AppDeps): DocumentStore {
  const root = path.join(deps.config.dataDir, 'media');
  const fileOf = (key: string) => path.join(root, ...key.split('/'));
  return {
    async put(key, data) {
      const file = fileOf(key);
      await fsp.mkdir(path.dirname(file), { recursive: true });
      const temp = `${file}.${process.pid}.tmp`;
      await fsp.writeFile(temp, data);
      await fsp.rename(temp, file);
    },
    readBuffer: (key) => fsp.readFile(fileOf(key)),
    delete: (key) => fsp.rm(fileOf(key), { force: true }),
  };
}
