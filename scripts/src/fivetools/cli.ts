import path from 'node:path';
import { ConfigError, loadConfig } from '@site/server/config';
import { InstallError, installFivetools, isInstalled } from '@site/server/areas/fivetools/fivetools.install';
import { runMain } from '../run-main.ts';

const usage = `Usage:
  npm run 5etools -- install PATH    install the 5eTools mirror from a release archive (.zip or .tar.gz)
                                     or an unpacked folder; the old copy is replaced once the new one is complete
  npm run 5etools -- status          where the mirror lives and whether a copy is installed

The copy goes to FIVETOOLS_DIR (default DATA_DIR/5etools). The running server serves the new copy at
once; no restart is needed.`;

/** npm runs workspace scripts inside the workspace; a relative PATH means where the command was typed. */
function fromWhereTyped(file: string): string {
  return path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'status' && rest.length === 0) {
    const installed = isInstalled(config.fivetoolsDir);
    console.log(`${config.fivetoolsDir}: ${installed ? 'a copy is installed' : 'no copy installed'}`);
    return 0;
  }
  if (command === 'install' && rest.length === 1 && rest[0]) {
    const report = await installFivetools(fromWhereTyped(rest[0]), config.fivetoolsDir, { log: (line) => console.log(line) });
    console.log(`Done: ${report.files} files, ${report.compressed} with compressed copies, in ${report.target}`);
    return 0;
  }
  console.error(usage);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

runMain(main, [InstallError, ConfigError]);
