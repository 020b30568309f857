#!/usr/bin/env node
/** The thin CLI: parse settings, start the library's server, print one line, stop cleanly on signals. */
import { DataFileError } from './errors/data-file-error.js';
import { ConfigError } from './errors/config-error.js';
import { startMockServer } from './server.js';
import { parseCliSettings, USAGE } from './config/settings.js';

const PROGRAM = 'creator-commerce-mock';

async function main(): Promise<void> {
  let settings;
  try {
    settings = parseCliSettings(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${PROGRAM}: ${error.message} (see --help)\n`);
      process.exit(2);
    }
    throw error;
  }
  if (settings.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }

  let mock;
  try {
    mock = await startMockServer(settings.options);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Found at start-up (an unknown boot scenario): named as the user typed it, flag or variable.
      const typed = settings.typedNames[error.setting];
      process.stderr.write(`${PROGRAM}: ${typed ? error.message.replace(error.setting, typed) : error.message}\n`);
      process.exit(2);
    }
    if (error instanceof DataFileError) {
      process.stderr.write(`${PROGRAM}: ${error.message}\n`);
      process.exit(2);
    }
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(`${PROGRAM}: could not start: ${code ?? ''} ${(error as Error).message}\n`);
    process.exit(1);
  }

  // Signal handlers go in before the listening line: a supervisor may signal as soon as it reads it.
  let stopping = false;
  const stop = (signal: NodeJS.Signals | 'npx exited') => {
    if (stopping) return;
    stopping = true;
    // Graceful: requests already received are answered; the grace period bounds the wait.
    const graceMs = mock.app.sandbox.options.shutdownGraceMs;
    // A safety net only: close() itself ends by then, cutting what is left.
    const deadline = setTimeout(() => process.exit(0), graceMs + 1000);
    deadline.unref();
    void mock.close().then(({ cut }) => {
      const cutNote = cut === 0 ? '' : `; ${cut} request${cut === 1 ? '' : 's'} cut after the ${graceMs} ms grace period`;
      process.stdout.write(`${PROGRAM} stopped (${signal})${cutNote}\n`);
      process.exit(0);
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  stopWhenOrphanedByNpx(() => stop('npx exited'));

  const { sandbox } = mock.app;
  process.stdout.write(
    `${PROGRAM} listening on ${mock.boundUrl} (api ${mock.apiUrl}, admin ${mock.url}/__admin, fixtures ${sandbox.fixture.name}, seed ${sandbox.options.seed}, clock ${sandbox.world.clock.mode})\n`,
  );
}

/** How often an npx-started server checks that npx is still there: well inside contract §1's 2 s. */
const PARENT_CHECK_MS = 200;

/**
 * `npx creator-commerce-mock & kill $!` signals npm, which exits without passing the signal through
 * the `sh -c` it ran the bin with: the server would be left serving, reparented, holding the port.
 * Under `npm exec` only (npm sets `npm_command=exec`), a server whose parent went away stops as on
 * SIGTERM. Not in general: a server started with `nohup … &` is meant to outlive its shell.
 */
function stopWhenOrphanedByNpx(stop: () => void): void {
  if (process.env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const check = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(check);
    stop();
  }, PARENT_CHECK_MS);
  check.unref();
}

main().catch((error: unknown) => {
  process.stderr.write(`${PROGRAM}: ${(error as Error)?.message ?? String(error)}\n`);
  process.exit(1);
});
