// `npm run admin -- <command> NAME` (scripts/admin.mjs runs the compiled dist/server/admin.js): the
// owner's way back in when no admin can sign in, run on the gateway itself (docs/hardware.md, "Locked
// out"). It opens the data dir's database directly, beside a running gateway or without one (SQLite's
// WAL lets both write), so it needs a shell on the Pi and read access to the data dir, nothing else.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDataDir } from './db/data-dir.ts';
import { SetupCode } from './auth/setup-code.ts';
import { UsersRepo } from './auth/users-repo.ts';
import { ConfigError, loadConfig } from './config/load.ts';
import { DATABASE_FILE, openDatabase } from './db/open.ts';
import { createAdmin, RecoveryError, resetPassword } from './admin/recovery.ts';
import { SystemClock } from '../common/clock.ts';

const USAGE = `Usage: npm run admin -- <command> NAME [options]

Commands:
  reset-password NAME   set a new password for NAME and sign out all its sessions
  create-admin NAME     make NAME an admin (created if missing) when the gateway has no admin left

Options:
  --stdin               read the new password from standard input instead of generating one
  --email ADDRESS       the e-mail of an account create-admin creates (default NAME@localhost)
  --data-dir DIR        the gateway's data dir (default: GREENHOUSE_DATA_DIR or the config's dataDir)

A generated password is printed once: sign in with it and change it in Settings > Profile.`;

interface Args {
  command: 'reset-password' | 'create-admin';
  name: string;
  stdin: boolean;
  email: string | null;
  dataDir: string | null;
}

function parseArgs(argv: string[]): Args {
  const [command, name, ...rest] = argv;
  if ((command !== 'reset-password' && command !== 'create-admin') || !name || name.startsWith('-')) throw new RecoveryError(USAGE, 64);
  const args: Args = { command, name, stdin: false, email: null, dataDir: null };
  for (let i = 0; i < rest.length; i++) {
    const option = rest[i];
    if (option === '--stdin') args.stdin = true;
    else if (option === '--email' && rest[i + 1]) args.email = rest[++i]!;
    else if (option === '--data-dir' && rest[i + 1]) args.dataDir = rest[++i]!;
    else throw new RecoveryError(`Unknown option ${option}\n\n${USAGE}`, 64);
  }
  return args;
}

/** The password typed or piped in: the first line, without its line ending. */
function passwordFromStdin(): string {
  const text = readFileSync(0, 'utf8');
  const line = text.split(/\r?\n/)[0] ?? '';
  if (line === '') throw new RecoveryError('--stdin: no password on standard input', 65);
  return line;
}

async function run(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const config = loadConfig(args.dataDir ? { ...process.env, GREENHOUSE_DATA_DIR: args.dataDir } : process.env);
  const dataDir = config.dataDir;
  // Never creates an empty database somewhere by mistake: the gateway must have run here before.
  if (!existsSync(join(dataDir, DATABASE_FILE))) throw new RecoveryError(`No gateway database in ${dataDir} (give --data-dir or GREENHOUSE_DATA_DIR)`, 66);
  ensurePrivateDataDir(dataDir);
  const given = args.stdin ? passwordFromStdin() : null;
  const database = openDatabase(dataDir);
  try {
    const users = new UsersRepo({ db: database.db, greenhouseId: config.greenhouseId, clock: new SystemClock() });
    const outcome = args.command === 'reset-password' ? await resetPassword(users, args.name, given) : await createAdmin(users, args.name, given, args.email);
    // An admin now exists: the first run's setup code has nothing left to guard.
    if (args.command === 'create-admin') new SetupCode(dataDir).remove();
    const what = args.command === 'reset-password' ? `Password of '${outcome.user.username}' reset` : `'${outcome.user.username}' is an admin`;
    process.stdout.write(`${what}; its earlier sessions are signed out.\n`);
    if (outcome.generated) {
      process.stdout.write(`One-time password (shown only now; change it after signing in): ${outcome.password}\n`);
    }
  } finally {
    database.close();
  }
}

try {
  await run(process.argv.slice(2));
} catch (err) {
  if (err instanceof RecoveryError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(err.exitCode);
  }
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
