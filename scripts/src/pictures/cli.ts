import { ConfigError } from '@site/server/config';
import { DatabaseInUseError } from '@site/server/db/database';
import { ImportError } from '@site/server/areas/pictures/pictures.import';
import { runMain } from '../run-main.ts';
import { SourceError } from './sources.ts';
import { picturesCommand } from './command.ts';

// `npm run pictures -- import PATH... [--as NAME] [--albums-from-folders] [--report FILE]`.
runMain((args) => picturesCommand(args), [ConfigError, DatabaseInUseError, ImportError, SourceError]);
