import { toolEnv } from '../config/tool-env.js';
import { openDatabase } from '../db/database.js';
import { runAdminCommand, UsageError } from './admin-commands.js';

/** `npm run admin -- <command>`: user administration on the configured database. */
async function main(argv: string[]): Promise<number> {
  const env = toolEnv();
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.dataDirPath });
  try {
    return await runAdminCommand(database.db, argv, { print: (line) => console.log(line) }, {
      superadminEmails: env.SUPERADMIN_EMAILS,
    });
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
