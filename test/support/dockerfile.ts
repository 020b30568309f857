/**
 * Replays a Dockerfile's build stage without a Docker engine (none runs on our build machines), so a
 * file the build needs but the Dockerfile never copies fails `npm test`, not the first image build.
 *
 * A temporary folder plays the image's root: each `COPY` of the stage copies its sources from the
 * build context (minus `.dockerignore`) to the folder, then its `RUN` commands run there with `sh -c`
 * in the stage's `WORKDIR`. Absolute paths in `RUN` lines are taken as paths inside the image.
 * What it does not reproduce: the base image itself (its Node and npm versions, its OS); the
 * commands run with this machine's Node and npm.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  /** The arguments, continuation lines joined. */
  args: string;
}

export interface Stage {
  /** The `AS` name, or the stage's index as a string. */
  name: string;
  image: string;
  instructions: Instruction[];
}

export interface StageCopy {
  /** The `--from=` stage, or undefined for a copy from the build context. */
  from: string | undefined;
  sources: string[];
  destination: string;
}

/** The stages of a Dockerfile, with `\` continuations joined and comments dropped. */
export function parseDockerfile(text: string): Stage[] {
  const logicalLines = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const stages: Stage[] = [];
  for (const line of logicalLines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', , name] = args.split(/\s+/);
      stages.push({ name: name ?? String(stages.length), image, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile: ${keyword} before the first FROM`);
      stage.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** A stage's `COPY` instructions, flags parsed (`--chown` and the like are ignored). */
export function copiesOf(stage: Stage): StageCopy[] {
  return stage.instructions
    .filter((i) => i.keyword === 'COPY')
    .map((i) => {
      if (i.args.startsWith('[')) throw new Error(`Dockerfile: JSON-form COPY is not replayed: ${i.args}`);
      const words = i.args.split(/\s+/);
      const flags = words.filter((w) => w.startsWith('--'));
      const paths = words.filter((w) => !w.startsWith('--'));
      const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
      const destination = paths.pop();
      if (!destination || paths.length === 0) throw new Error(`Dockerfile: COPY needs a source and a destination: ${i.args}`);
      return { from, sources: paths, destination };
    });
}

/** `.dockerignore` patterns as one predicate on context-relative paths (names, `*` globs). */
function ignoredBy(context: string): (relative: string) => boolean {
  const file = path.join(context, '.dockerignore');
  if (!existsSync(file)) return () => false;
  const patterns = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim().replace(/^\/+|\/+$/g, ''))
    .filter((line) => line !== '' && !line.startsWith('#'));
  for (const p of patterns) if (p.startsWith('!') || p.includes('**')) throw new Error(`.dockerignore: pattern ${p} is not replayed`);
  const regexes = patterns.map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
  return (relative) => regexes.some((r) => r.test(relative));
}

/** Where `inImage` (an absolute or WORKDIR-relative path in the image) lives under `root`. */
function hostPath(root: string, workdir: string, inImage: string): string {
  return path.join(root, path.posix.resolve(workdir, inImage));
}

/**
 * Runs `stage` as `docker build` would, with `root` as the image's `/`: COPY from `context`, then
 * RUN with `sh -c` in the WORKDIR, in order. Throws (with the command's output) at the first step
 * that fails, as the build would.
 */
export function replayStage(stage: Stage, context: string, root: string, env: NodeJS.ProcessEnv): void {
  const ignored = ignoredBy(context);
  let workdir = '/';
  let copyIndex = 0;
  const copies = copiesOf(stage);
  for (const instruction of stage.instructions) {
    if (instruction.keyword === 'WORKDIR') {
      workdir = path.posix.resolve(workdir, instruction.args);
      mkdirSync(hostPath(root, workdir, '.'), { recursive: true });
    } else if (instruction.keyword === 'COPY') {
      const copy = copies[copyIndex++]!;
      if (copy.from !== undefined) throw new Error(`Dockerfile: COPY --from in the replayed stage ${stage.name}`);
      const target = hostPath(root, workdir, copy.destination);
      const intoFolder = copy.destination.endsWith('/') || copy.sources.length > 1;
      for (const source of copy.sources) {
        const from = path.join(context, source);
        if (!existsSync(from) || ignored(source)) throw new Error(`Dockerfile: COPY ${source}: not in the build context`);
        // A folder's contents go to the destination; a file goes into it when it names a folder.
        const to = statSync(from).isDirectory() || !intoFolder ? target : path.join(target, path.basename(source));
        cpSync(from, to, { recursive: true, filter: (file) => !ignored(path.relative(context, file)) });
      }
    } else if (instruction.keyword === 'RUN') {
      if (instruction.args.startsWith('[')) throw new Error(`Dockerfile: JSON-form RUN is not replayed: ${instruction.args}`);
      // Absolute paths (a word starting with `/`) are paths in the image, so under `root`.
      const command = instruction.args.replace(/(^|\s)\/(?=\w)/g, `$1${root}/`);
      try {
        execFileSync('sh', ['-c', command], { cwd: hostPath(root, workdir, '.'), env, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
        throw new Error(`Dockerfile: RUN ${instruction.args}\nfailed: ${stderr}${stdout}`);
      }
    }
  }
}

/** The host path of an absolute path inside the replayed image. */
export function imagePath(root: string, inImage: string): string {
  return hostPath(root, '/', inImage);
}
