/** What a damaged snapshot is refused with (contract §5.3: 422 naming the member in `param`). */

/** A damaged or unsupported snapshot: `path` names the member, `message` says what is wrong. */
export class SnapshotProblem extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotProblem';
  }
}

export type Json = Record<string, unknown>;

export function fail(path: string, message: string): never {
  throw new SnapshotProblem(path, message);
}
