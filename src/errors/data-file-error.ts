/**
 * A data file (fixture, scenario) that breaks its schema: names the file and the JSON path inside
 * it, so start-up can stop with one clear line (the CLI exits 2 with it).
 */
export class DataFileError extends Error {
  constructor(
    kind: string,
    readonly file: string,
    readonly pointer: string,
    readonly detail: string,
  ) {
    super(`${kind} ${file}${pointer ? ` at ${pointer}` : ''}: ${detail}`);
    this.name = 'DataFileError';
  }
}
