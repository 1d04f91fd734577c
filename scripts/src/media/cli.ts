import { mediaCommand } from '@site/server/media/media.cli';
import { MediaMoveError } from '@site/server/media/move';
import { MediaUnavailableError } from '@site/server/media/storage';
import { ConfigError } from '@site/server/config';
import { runMain } from '../run-main.ts';

// The command lives with the media stores (server/src/media/media.cli.ts); this is its entry point.
runMain((args) => mediaCommand(args), [ConfigError, MediaMoveError, MediaUnavailableError]);
