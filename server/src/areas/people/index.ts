import { defineServerArea } from '../area.ts';
import { peopleAfterRestore, peopleMigrations } from './people.migrations.ts';
import { peopleRouter, tagsRouter } from './people.router.ts';
import { startPeopleWorker } from './people.worker.ts';

/** Who and what is in the pictures (issue 40): faces clustered into people (`people.*`) and things as tags (`tags.*`); one folder, one set of tables. */
export const peopleArea = defineServerArea({ router: peopleRouter, migrations: peopleMigrations, worker: startPeopleWorker, afterRestore: peopleAfterRestore });
export const tagsArea = defineServerArea({ router: tagsRouter });
