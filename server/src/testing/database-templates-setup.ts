import { makeDatabaseTemplates } from './database-templates.js';

/** vitest global setup of the server tests: the run's migrated database templates, dropped after. */
export default async function setup(): Promise<() => Promise<void>> {
  return makeDatabaseTemplates();
}
