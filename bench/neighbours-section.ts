/**
 * The neighbours section of `npm run bench` in a process of its own. Run inside bench/run.ts after
 * the other sections, its loads ran three to four times slower than alone (the harness's heap held
 * what the earlier sections built, its collector's threads took both cores for their pauses) and the
 * neighbour's latency measured the harness as much as the sandbox. Its lines go to stdout as JSON,
 * one per line (`{"line": …}`), then the summary (`{"summary": …}`), which bench/run.ts reads.
 */
import { neighbours } from './neighbours.js';

const write = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
const summary = await neighbours((line = '') => write({ line }));
write({ summary });
